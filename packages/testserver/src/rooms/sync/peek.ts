/**
 * GET /events: the deprecated event stream, used to peek into a
 * world_readable room (room_id) or to follow the rooms one is joined to,
 * with a long-poll.
 */
import type { ServerContext } from "../../core/context";
import type { JsonObject } from "../../core/events";
import { errors } from "../../http/errors";
import type { Router } from "../../http/router";
import { CLIENT_V3 } from "../../http/router";
import type { HandlerRequest } from "../../http/types";
import { formatEvent } from "../format";
import { paginate } from "../paginate";
import type { Room } from "../room";
import { intQuery, requester } from "../routes/util";
import { encodeToken, parseToken } from "../tokens";
import { isWorldReadable } from "../visibility";

export function registerPeekRoutes(router: Router, ctx: ServerContext): void {
  router.add("GET", CLIENT_V3, "/events", (req) => events(ctx, req), { guests: true });
}

async function events(ctx: ServerContext, req: HandlerRequest): Promise<JsonObject> {
  const me = requester(req);
  const roomId = req.query.get("room_id");
  let rooms: Room[];
  if (roomId !== null) {
    const room = ctx.rooms.require(roomId);
    if (!isWorldReadable(room) && ctx.rooms.membershipOf(roomId, me.userId) !== "join")
      throw errors.forbidden(`User ${me.userId} not in room ${roomId}, and room previews are disabled`);
    rooms = [room];
  } else {
    rooms = ctx.rooms
      .roomsForUser(me.userId)
      .filter((r) => r.membership === "join")
      .map((r) => ctx.rooms.require(r.roomId));
  }
  const fromRaw = req.query.get("from");
  const from = fromRaw ? parseToken(fromRaw) : ctx.notifier.position;
  const timeout = intQuery(req, "timeout", 30_000, 0, 5 * 60_000);
  const deadline = Date.now() + timeout;
  for (;;) {
    const now = ctx.notifier.position;
    const found = rooms.flatMap((room) =>
      paginate(room, me.userId, { from, dir: "f", to: now, limit: 100 }).events.map((e) => ({ room, e })),
    );
    found.sort((a, b) => a.e.stream - b.e.stream);
    const remaining = deadline - Date.now();
    if (found.length > 0 || remaining <= 0 || req.signal.aborted) {
      const end = found.length > 0 ? (found[found.length - 1]?.e.stream ?? now) : now;
      return {
        chunk: found.map(({ room, e }) => formatEvent(ctx, room, e, me)),
        start: encodeToken(from),
        end: encodeToken(end),
      };
    }
    await ctx.notifier.waitForChange(remaining, req.signal);
  }
}
