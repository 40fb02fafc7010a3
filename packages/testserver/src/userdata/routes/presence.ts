/**
 * PUT/GET /presence/{userId}/status. Anyone may read the presence of a user
 * they share a room with; only the user sets their own.
 */
import type { ServerContext } from "../../core/context";
import { errors } from "../../http/errors";
import { CLIENT_V3 } from "../../http/router";
import type { Router } from "../../http/router";
import { PRESENCE_STATES } from "../presence";
import type { PresenceState } from "../wire-types";
import { requester, requireObject, requireSelf } from "./util";

/** The longest status message kept, as Synapse limits it. */
export const MAX_STATUS_MSG_LENGTH = 1024;

function sharesRoom(ctx: ServerContext, a: string, b: string): boolean {
  const joinedByB = new Set(
    ctx.rooms
      .roomsForUser(b)
      .filter((r) => r.membership === "join")
      .map((r) => r.roomId),
  );
  return ctx.rooms.roomsForUser(a).some((r) => r.membership === "join" && joinedByB.has(r.roomId));
}

export function registerPresenceRoutes(router: Router, ctx: ServerContext): void {
  router.add(
    "PUT",
    CLIENT_V3,
    "/presence/:userId/status",
    (req) => {
      const userId = req.params["userId"] ?? "";
      requireSelf(req, userId, "Can only set your own presence state");
      const body = requireObject(req.body);
      const presence = body["presence"];
      if (presence === undefined) throw errors.missingParam("presence");
      if (typeof presence !== "string" || !PRESENCE_STATES.includes(presence as PresenceState))
        throw errors.invalidParam("Invalid presence state");
      const msg = body["status_msg"];
      if (msg !== undefined && msg !== null && typeof msg !== "string")
        throw errors.invalidParam("status_msg must be a string");
      if (typeof msg === "string" && msg.length > MAX_STATUS_MSG_LENGTH)
        throw errors.invalidParam(`status_msg must be at most ${MAX_STATUS_MSG_LENGTH} characters`);
      ctx.userData.presence.set(userId, presence as PresenceState, msg);
      return {};
    },
    { guests: true },
  );

  router.add(
    "GET",
    CLIENT_V3,
    "/presence/:userId/status",
    (req) => {
      const who = requester(req);
      const userId = req.params["userId"] ?? "";
      if (userId !== who.userId) {
        if (!ctx.accounts.userExists(userId)) throw errors.notFound("Unknown user");
        if (!sharesRoom(ctx, who.userId, userId))
          throw errors.forbidden("You are not allowed to see their presence.");
      }
      return { ...ctx.userData.presence.status(userId) };
    },
    { guests: true },
  );
}
