/** watch_turn_servers: start pushing TURN servers (first watch polls). */
import { MatrixCapabilities } from "../capabilities/MatrixCapabilities";
import type { ActionHandler } from "../host/ActionContext";
import { requireCapability } from "../host/ActionContext";

/** Error texts of TURN watching (SPEC §8). */
export const TURN_ERRORS = {
  notAvailable: "TURN servers not available",
  refused: "Client refuses to provide any TURN servers",
} as const;

/** Handles fromWidget watch_turn_servers. */
export const watchTurnServers: ActionHandler = async (ctx, request) => {
  requireCapability(ctx, MatrixCapabilities.MSC3846TurnServers);
  if (!ctx.turn.watching) ctx.afterReply(request, await ctx.turn.start());
  return {};
};
