/**
 * HTTP routes of the userdata domain.
 */
import type { ServerContext } from "../core/context";
import type { Router } from "../http/router";

export function registerUserdataRoutes(_router: Router, _ctx: ServerContext): void {}
