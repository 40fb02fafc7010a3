/**
 * HTTP routes of the userdata domain, one module per family under routes/.
 */
import type { ServerContext } from "../core/context";
import type { Router } from "../http/router";
import { registerAccountDataRoutes } from "./routes/account-data";
import { registerDelayedEventRoutes } from "./routes/delayed-events";
import { registerFilterRoutes } from "./routes/filters";
import { registerNotificationRoutes } from "./routes/notifications";
import { registerPresenceRoutes } from "./routes/presence";
import { registerPushRuleRoutes } from "./routes/push-rules";
import { registerReceiptRoutes } from "./routes/receipts";

export function registerUserdataRoutes(router: Router, ctx: ServerContext): void {
  ctx.unstableFeatures.set("org.matrix.msc3391", true);
  registerAccountDataRoutes(router, ctx);
  registerReceiptRoutes(router, ctx);
  registerPresenceRoutes(router, ctx);
  registerPushRuleRoutes(router, ctx);
  registerNotificationRoutes(router, ctx);
  registerFilterRoutes(router, ctx);
  registerDelayedEventRoutes(router, ctx);
}
