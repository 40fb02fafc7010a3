/**
 * Room upgrades, the space hierarchy (v1 and the unstable MSC2946 path)
 * and the room summary (MSC3266: v1 room_summary and im.nheko.summary).
 */
import type { ServerContext } from "../../core/context";
import type { JsonObject, StoredEvent } from "../../core/events";
import { errors } from "../../http/errors";
import type { Router } from "../../http/router";
import { CLIENT_V1, CLIENT_V3 } from "../../http/router";
import type { HandlerRequest } from "../../http/types";
import { membershipIn } from "../auth";
import type { Room } from "../room";
import { publicChunk, joinRule } from "../room-info";
import { upgradeRoom } from "../upgrade";
import { isWorldReadable } from "../visibility";
import { boolQuery, bodyObject, intQuery, requester } from "./util";

/** Whether a user may see a room's description (member, public, knockable, world_readable or allowed by restriction). */
function canPreview(ctx: ServerContext, room: Room, userId: string | undefined): boolean {
  if (userId !== undefined && membershipIn(room, userId) !== undefined) return true;
  if (isWorldReadable(room)) return true;
  const rule = joinRule(room);
  if (rule === "public" || rule === "knock" || rule === "knock_restricted") return true;
  if ((rule === "restricted" || rule === "knock_restricted") && userId !== undefined) {
    const allow = room.stateContent("m.room.join_rules")?.["allow"];
    if (Array.isArray(allow))
      return allow.some(
        (a: unknown) =>
          typeof a === "object" &&
          a !== null &&
          typeof (a as JsonObject)["room_id"] === "string" &&
          ctx.rooms.membershipOf((a as JsonObject)["room_id"] as string, userId) === "join",
      );
  }
  return false;
}

function childEvents(room: Room, suggestedOnly: boolean): StoredEvent[] {
  return [...room.state.values()].filter((ev) => {
    if (ev.type !== "m.space.child" || !ev.state_key) return false;
    const via = ev.content["via"];
    if (!Array.isArray(via) || via.length === 0) return false;
    return !suggestedOnly || ev.content["suggested"] === true;
  });
}

export function registerSpaceRoutes(router: Router, ctx: ServerContext): void {
  router.add("POST", CLIENT_V3, "/rooms/:roomId/upgrade", (req) => {
    const me = requester(req);
    const body = bodyObject(req);
    const version = body["new_version"];
    if (typeof version !== "string") throw errors.badJson("new_version must be a string");
    const extra = body["additional_creators"] ?? [];
    if (!Array.isArray(extra) || extra.some((u) => typeof u !== "string"))
      throw errors.badJson("additional_creators must be a list");
    const room = upgradeRoom(
      ctx,
      ctx.rooms,
      me.userId,
      req.params["roomId"] ?? "",
      version,
      extra as string[],
    );
    return { replacement_room: room.roomId };
  });

  const hierarchy = (req: HandlerRequest): JsonObject => {
    const me = requester(req);
    const root = ctx.rooms.require(req.params["roomId"] ?? "");
    if (!canPreview(ctx, root, me.userId)) throw errors.forbidden("You cannot view this room");
    const suggestedOnly = boolQuery(req, "suggested_only");
    const maxDepth = intQuery(req, "max_depth", 100, 0, 100);
    const limit = intQuery(req, "limit", 50, 1, 1000);
    const fromRaw = req.query.get("from");
    let offset = 0;
    if (fromRaw !== null) {
      if (!/^h\d{1,9}$/.test(fromRaw)) throw errors.invalidParam("Invalid from token");
      offset = Number.parseInt(fromRaw.slice(1), 10);
    }
    const out: JsonObject[] = [];
    const seen = new Set<string>();
    const queue: Array<{ room: Room; depth: number }> = [{ room: root, depth: 0 }];
    while (queue.length > 0) {
      const { room, depth } = queue.shift() as { room: Room; depth: number };
      if (seen.has(room.roomId)) continue;
      seen.add(room.roomId);
      if (room !== root && !canPreview(ctx, room, me.userId)) continue;
      const children = childEvents(room, suggestedOnly);
      out.push({
        ...publicChunk(room),
        children_state: children.map((c) => ({
          type: c.type,
          state_key: c.state_key,
          content: c.content,
          sender: c.sender,
          origin_server_ts: c.origin_server_ts,
        })),
      });
      if (depth >= maxDepth) continue;
      for (const c of children) {
        const child = ctx.rooms.rooms.get(c.state_key as string);
        if (child) queue.push({ room: child, depth: depth + 1 });
      }
    }
    const page = out.slice(offset, offset + limit);
    const res: JsonObject = { rooms: page };
    if (offset + limit < out.length) res["next_batch"] = `h${offset + limit}`;
    return res;
  };
  router.add("GET", CLIENT_V1, "/rooms/:roomId/hierarchy", hierarchy, { guests: true });
  router.add("GET", "/_matrix/client/unstable/org.matrix.msc2946", "/rooms/:roomId/hierarchy", hierarchy, {
    guests: true,
  });

  const summary = (req: HandlerRequest): JsonObject => {
    const me = req.requester;
    const target = req.params["roomIdOrAlias"] ?? "";
    let room: Room | undefined;
    try {
      room = ctx.rooms.rooms.get(ctx.rooms.resolve(target));
    } catch {
      room = undefined;
    }
    if (!room || !canPreview(ctx, room, me?.userId))
      throw errors.notFound("Room not found or is not accessible");
    const out: JsonObject = { ...publicChunk(room), room_version: room.version };
    const enc = room.stateContent("m.room.encryption")?.["algorithm"];
    if (typeof enc === "string") {
      out["encryption"] = enc;
      out["im.nheko.summary.encryption"] = enc;
    }
    out["im.nheko.summary.room_version"] = room.version;
    if (me) out["membership"] = membershipIn(room, me.userId) ?? "leave";
    return out;
  };
  router.add("GET", CLIENT_V1, "/room_summary/:roomIdOrAlias", summary, { auth: "optional" });
  router.add("GET", "/_matrix/client/unstable/im.nheko.summary", "/summary/:roomIdOrAlias", summary, {
    auth: "optional",
  });
  router.add("GET", "/_matrix/client/unstable/im.nheko.summary", "/rooms/:roomIdOrAlias/summary", summary, {
    auth: "optional",
  });
  ctx.unstableFeatures.set("im.nheko.summary", true);
  ctx.unstableFeatures.set("org.matrix.msc3266", true);
}
