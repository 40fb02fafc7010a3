/**
 * HTTP routes of the accounts domain. Each family lives in routes/; this
 * file only wires them and advertises the domain's unstable features.
 */
import type { ServerContext } from "../core/context";
import type { Router } from "../http/router";
import { registerAccountRoutes } from "./routes/account";
import { registerAdminRoutes } from "./routes/admin";
import { registerDirectoryRoutes } from "./routes/directory";
import { registerKeysRoutes } from "./routes/keys";
import { registerMediaRoutes } from "./routes/media";
import { registerPreviewRoutes } from "./routes/preview";
import { registerProfileRoutes } from "./routes/profile";
import { registerRoomKeysRoutes } from "./routes/room-keys";
import { registerServerFeatureRoutes } from "./routes/server-features";
import { registerToDeviceRoutes } from "./routes/to-device";
import { registerDeviceRoutes } from "./routes/devices";
import { registerLoginRoutes } from "./routes/login";
import { registerRegisterRoutes } from "./routes/register";
import { registerSsoRoutes } from "./routes/sso";
import { registerThreepidRoutes } from "./routes/threepids";

export function registerAccountsRoutes(router: Router, ctx: ServerContext): void {
  registerRegisterRoutes(router, ctx);
  registerLoginRoutes(router, ctx);
  registerSsoRoutes(router, ctx);
  registerDeviceRoutes(router, ctx);
  registerAccountRoutes(router, ctx);
  registerThreepidRoutes(router, ctx);
  registerProfileRoutes(router, ctx);
  registerDirectoryRoutes(router, ctx);
  registerServerFeatureRoutes(router, ctx);
  registerMediaRoutes(router, ctx);
  registerPreviewRoutes(router, ctx);
  registerToDeviceRoutes(router, ctx);
  registerKeysRoutes(router, ctx);
  registerRoomKeysRoutes(router, ctx);
  registerAdminRoutes(router, ctx);
}
