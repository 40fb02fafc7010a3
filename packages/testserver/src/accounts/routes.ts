/**
 * HTTP routes of the accounts domain.
 */
import type { ServerContext } from "../core/context";
import type { Router } from "../http/router";

export function registerAccountsRoutes(_router: Router, _ctx: ServerContext): void {}
