/**
 * HTTP routes of the rooms domain: each family registers itself from its
 * module under routes/ (and sync/).
 */
import type { ServerContext } from "../core/context";
import type { Router } from "../http/router";
import { registerCreateRoomRoutes } from "./routes/create-room";
import { registerDirectoryRoutes } from "./routes/directory";
import { registerLookupRoutes } from "./routes/lookup";
import { registerMembershipRoutes } from "./routes/membership";
import { registerMutualRoomsRoutes } from "./routes/mutual-rooms";
import { registerReadRoutes } from "./routes/read";
import { registerRelationsRoutes } from "./routes/relations";
import { registerSearchRoutes } from "./routes/search";
import { registerSpaceRoutes } from "./routes/spaces";
import { registerSendRoutes } from "./routes/send";
import { registerSyncRoutes } from "./sync/routes";

export function registerRoomsRoutes(router: Router, ctx: ServerContext): void {
  registerCreateRoomRoutes(router, ctx);
  registerMembershipRoutes(router, ctx);
  registerSendRoutes(router, ctx);
  registerReadRoutes(router, ctx);
  registerRelationsRoutes(router, ctx);
  registerLookupRoutes(router, ctx);
  registerSearchRoutes(router, ctx);
  registerDirectoryRoutes(router, ctx);
  registerSpaceRoutes(router, ctx);
  registerMutualRoomsRoutes(router, ctx);
  registerSyncRoutes(router, ctx);
}
