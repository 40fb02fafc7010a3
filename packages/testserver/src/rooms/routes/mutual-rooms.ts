/**
 * Mutual rooms (MSC2666): rooms both the requester and another user are
 * joined to, on the v1 path and the unstable uk.half-shot.msc2666 path,
 * in batches with a from token.
 */
import type { ServerContext } from "../../core/context";
import type { JsonObject } from "../../core/events";
import { errors } from "../../http/errors";
import type { Router } from "../../http/router";
import { CLIENT_V1 } from "../../http/router";
import type { HandlerRequest } from "../../http/types";
import { requester } from "./util";

/** Rooms per batch. */
export const MUTUAL_ROOMS_BATCH = 100;

export function registerMutualRoomsRoutes(router: Router, ctx: ServerContext): void {
  const mutual = (req: HandlerRequest): JsonObject => {
    const me = requester(req);
    const other = req.query.get("user_id");
    if (other === null) throw errors.missingParam("user_id");
    if (!/^@[^:]+:.+$/.test(other) || other === me.userId)
      throw errors.invalidParam("The user ID provided was invalid");
    const fromRaw = req.query.get("from") ?? req.query.get("batch_token");
    let offset = 0;
    if (fromRaw !== null) {
      if (!/^m\d{1,9}$/.test(fromRaw)) throw errors.invalidParam("Invalid from token");
      offset = Number.parseInt(fromRaw.slice(1), 10);
    }
    const joined = ctx.rooms
      .roomsForUser(me.userId)
      .filter((r) => r.membership === "join" && ctx.rooms.membershipOf(r.roomId, other) === "join")
      .map((r) => r.roomId)
      .sort();
    const out: JsonObject = {
      joined: joined.slice(offset, offset + MUTUAL_ROOMS_BATCH),
      count: joined.length,
    };
    if (offset + MUTUAL_ROOMS_BATCH < joined.length) {
      out["next_batch"] = `m${offset + MUTUAL_ROOMS_BATCH}`;
      out["next_batch_token"] = out["next_batch"];
    }
    return out;
  };
  router.add("GET", CLIENT_V1, "/mutual_rooms", mutual);
  router.add("GET", "/_matrix/client/unstable/uk.half-shot.msc2666", "/user/mutual_rooms", mutual);
  ctx.unstableFeatures.set("uk.half-shot.msc2666.query_mutual_rooms", true);
}
