/**
 * HTTP routes of the rooms domain.
 */
import type { ServerContext } from "../core/context";
import type { Router } from "../http/router";

export function registerRoomsRoutes(_router: Router, _ctx: ServerContext): void {}
