/** unwatch_turn_servers: stop pushing TURN servers. */
import { MatrixCapabilities } from "../capabilities/MatrixCapabilities";
import type { ActionHandler } from "../host/ActionContext";
import { requireCapability } from "../host/ActionContext";

/** Handles fromWidget unwatch_turn_servers (a no-op when not watching). */
export const unwatchTurnServers: ActionHandler = async (ctx) => {
  requireCapability(ctx, MatrixCapabilities.MSC3846TurnServers);
  if (ctx.turn.watching) await ctx.turn.stop();
  return {};
};
