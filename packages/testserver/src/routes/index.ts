/**
 * Registers every route family of the test homeserver.
 */
import { registerAccountsRoutes } from "../accounts/routes";
import type { ServerContext } from "../core/context";
import type { Router } from "../http/router";
import { registerRoomsRoutes } from "../rooms/routes";
import { registerUserdataRoutes } from "../userdata/routes";
import { registerRtcRoutes } from "./rtc";
import { registerServerRoutes } from "./server-info";

export function registerAllRoutes(router: Router, ctx: ServerContext): void {
  registerServerRoutes(router, ctx);
  registerAccountsRoutes(router, ctx);
  registerRoomsRoutes(router, ctx);
  registerUserdataRoutes(router, ctx);
  registerRtcRoutes(router, ctx);
}
