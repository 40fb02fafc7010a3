/**
 * Reading a room: /event, /messages, /context, /members, /joined_members
 * and the room /initialSync, all through history visibility.
 */
import type { ServerContext } from "../../core/context";
import type { JsonObject, StoredEvent } from "../../core/events";
import { errors } from "../../http/errors";
import type { Router } from "../../http/router";
import { CLIENT_V3 } from "../../http/router";
import type { HandlerRequest, Requester } from "../../http/types";
import type { EventFilter } from "../filter";
import { parseEventFilter, readFilterParam } from "../filter";
import { formatEvent } from "../format";
import { paginate } from "../paginate";
import type { Room } from "../room";
import { stateKey } from "../room";
import { encodeToken, parseToken } from "../tokens";
import { canSee, stateReadableUntil } from "../visibility";
import { intQuery, requester } from "./util";

/** The filter query parameter of /messages and /context (inline JSON only, per spec). */
function roomFilter(ctx: ServerContext, req: HandlerRequest, me: Requester): EventFilter | undefined {
  const raw = readFilterParam(req.query.get("filter"), (id) => ctx.userData.filter(me.userId, id));
  return raw === undefined ? undefined : parseEventFilter(raw);
}

/** The room, when the requester may read its history at all (member now or before, or world_readable). */
function readableRoom(ctx: ServerContext, req: HandlerRequest, me: Requester): { room: Room; until: number } {
  const room = ctx.rooms.require(req.params["roomId"] ?? "");
  const until =
    stateReadableUntil(room, me.userId) ??
    (ctx.rooms.membershipOf(room.roomId, me.userId) === "invite" ? room.lastStream : undefined);
  if (until === undefined)
    throw errors.forbidden(`User ${me.userId} not in room ${room.roomId}, and room previews are disabled`);
  return { room, until: Math.min(until, room.lastStream) };
}

/** Member events of the senders of `events` (lazy-loading members). */
export function membersFor(room: Room, events: readonly StoredEvent[]): StoredEvent[] {
  const out = new Map<string, StoredEvent>();
  for (const ev of events) {
    const m = room.state.get(stateKey("m.room.member", ev.sender));
    if (m) out.set(ev.sender, m);
  }
  return [...out.values()];
}

export function registerReadRoutes(router: Router, ctx: ServerContext): void {
  router.add(
    "GET",
    CLIENT_V3,
    "/rooms/:roomId/event/:eventId",
    (req) => {
      const me = requester(req);
      const room = ctx.rooms.require(req.params["roomId"] ?? "");
      const ev = room.byId.get(req.params["eventId"] ?? "");
      if (!ev || !canSee(room, me.userId, ev)) throw errors.notFound("Event not found.");
      return formatEvent(ctx, room, ev, me);
    },
    { guests: true },
  );

  router.add(
    "GET",
    CLIENT_V3,
    "/rooms/:roomId/messages",
    (req) => {
      const me = requester(req);
      const { room, until } = readableRoom(ctx, req, me);
      const dirRaw = req.query.get("dir") ?? "b";
      if (dirRaw !== "b" && dirRaw !== "f") throw errors.invalidParam("dir must be b or f");
      const fromRaw = req.query.get("from");
      const toRaw = req.query.get("to");
      const filter = roomFilter(ctx, req, me);
      const limit = intQuery(req, "limit", filter?.limit ?? 10, 0, 1000);
      const from = fromRaw ? Math.min(parseToken(fromRaw), until) : dirRaw === "b" ? until : 0;
      const page = paginate(room, me.userId, {
        from,
        dir: dirRaw,
        limit,
        ...(toRaw ? { to: parseToken(toRaw, "to") } : {}),
        ...(filter ? { filter } : {}),
      });
      const out: JsonObject = {
        chunk: page.events.map((e) => formatEvent(ctx, room, e, me)),
        start: encodeToken(from),
      };
      const atEnd = dirRaw === "f" && page.next !== undefined && page.next >= until;
      if (page.next !== undefined && !atEnd) out["end"] = encodeToken(page.next);
      if (filter?.lazyLoadMembers)
        out["state"] = membersFor(room, page.events).map((e) => formatEvent(ctx, room, e, me));
      return out;
    },
    { guests: true },
  );

  router.add(
    "GET",
    CLIENT_V3,
    "/rooms/:roomId/context/:eventId",
    (req) => {
      const me = requester(req);
      const { room } = readableRoom(ctx, req, me);
      const ev = room.byId.get(req.params["eventId"] ?? "");
      if (!ev || !canSee(room, me.userId, ev)) throw errors.notFound("Event not found.");
      const filter = roomFilter(ctx, req, me);
      const limit = intQuery(req, "limit", 10, 0, 100);
      const beforeLimit = Math.floor(limit / 2);
      const before = paginate(room, me.userId, {
        from: ev.stream - 1,
        dir: "b",
        limit: beforeLimit,
        ...(filter ? { filter } : {}),
      });
      const after = paginate(room, me.userId, {
        from: ev.stream,
        dir: "f",
        limit: limit - beforeLimit,
        ...(filter ? { filter } : {}),
      });
      const lastAfter = after.events[after.events.length - 1];
      const stateEvents = filter?.lazyLoadMembers
        ? membersFor(room, [...before.events, ev, ...after.events])
        : [...room.stateAt(lastAfter?.stream ?? ev.stream).values()];
      return {
        event: formatEvent(ctx, room, ev, me),
        events_before: before.events.map((e) => formatEvent(ctx, room, e, me)),
        events_after: after.events.map((e) => formatEvent(ctx, room, e, me)),
        start: encodeToken(before.next ?? (before.events[before.events.length - 1]?.stream ?? ev.stream) - 1),
        end: encodeToken(lastAfter?.stream ?? ev.stream),
        state: stateEvents.map((e) => formatEvent(ctx, room, e, me)),
      };
    },
    { guests: true },
  );

  router.add(
    "GET",
    CLIENT_V3,
    "/rooms/:roomId/members",
    (req) => {
      const me = requester(req);
      const { room, until } = readableRoom(ctx, req, me);
      const at = req.query.get("at");
      const pos = at ? Math.min(parseToken(at, "at"), until) : until;
      const want = req.query.get("membership");
      const notWant = req.query.get("not_membership");
      const chunk = [...room.stateAt(pos).values()].filter((e) => {
        if (e.type !== "m.room.member") return false;
        const m = e.content["membership"];
        return (want === null || m === want) && (notWant === null || m !== notWant);
      });
      return { chunk: chunk.map((e) => formatEvent(ctx, room, e, me)) };
    },
    { guests: true },
  );

  router.add(
    "GET",
    CLIENT_V3,
    "/rooms/:roomId/joined_members",
    (req) => {
      const me = requester(req);
      const { room } = readableRoom(ctx, req, me);
      const joined: Record<string, JsonObject> = Object.create(null) as Record<string, JsonObject>;
      for (const e of room.state.values()) {
        if (e.type !== "m.room.member" || e.content["membership"] !== "join" || e.state_key === undefined)
          continue;
        const info: JsonObject = {};
        if (typeof e.content["displayname"] === "string") info["display_name"] = e.content["displayname"];
        if (typeof e.content["avatar_url"] === "string") info["avatar_url"] = e.content["avatar_url"];
        joined[e.state_key] = info;
      }
      return { joined };
    },
    { guests: true },
  );

  router.add(
    "GET",
    CLIENT_V3,
    "/rooms/:roomId/initialSync",
    (req) => {
      const me = requester(req);
      const { room, until } = readableRoom(ctx, req, me);
      const limit = intQuery(req, "limit", 10, 0, 1000);
      const page = paginate(room, me.userId, { from: until, dir: "b", limit });
      const chunk = [...page.events].reverse();
      const membership = ctx.rooms.membershipOf(room.roomId, me.userId);
      const out: JsonObject = {
        room_id: room.roomId,
        messages: {
          chunk: chunk.map((e) => formatEvent(ctx, room, e, me)),
          start: encodeToken(page.next ?? 0),
          end: encodeToken(until),
        },
        state: [...room.stateAt(until).values()].map((e) => formatEvent(ctx, room, e, me)),
        presence: [],
        account_data: ctx.userData.roomAccountDataSince(me.userId, room.roomId, 0),
        visibility: room.directory,
      };
      if (membership) out["membership"] = membership;
      return out;
    },
    { guests: true },
  );
}
