/**
 * POST /search for room_events: search_term over keys (content.body,
 * content.name, content.topic), a room event filter, order_by rank or
 * recent, event_context with profiles, and next_batch paging.
 */
import type { ServerContext } from "../../core/context";
import type { JsonObject, StoredEvent } from "../../core/events";
import { errors } from "../../http/errors";
import type { Router } from "../../http/router";
import { CLIENT_V3 } from "../../http/router";
import { isJsonObject } from "../../http/types";
import type { Requester } from "../../http/types";
import { eventMatches, parseEventFilter } from "../filter";
import { formatEvent } from "../format";
import { paginate } from "../paginate";
import type { Room } from "../room";
import { stateKey } from "../room";
import { encodeToken } from "../tokens";
import { canSee } from "../visibility";
import { bodyObject, requester } from "./util";

const KEYS = ["content.body", "content.name", "content.topic"];

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

function field(ev: StoredEvent, key: string): string | undefined {
  const name = key.slice("content.".length);
  const v = ev.content[name];
  return typeof v === "string" ? v : undefined;
}

interface Hit {
  room: Room;
  ev: StoredEvent;
  rank: number;
}

export function registerSearchRoutes(router: Router, ctx: ServerContext): void {
  router.add("POST", CLIENT_V3, "/search", (req) => {
    const me = requester(req);
    const body = bodyObject(req);
    const categories = body["search_categories"];
    if (!isJsonObject(categories)) throw errors.badJson("search_categories must be an object");
    const criteria = categories["room_events"];
    if (criteria === undefined) return { search_categories: {} };
    if (!isJsonObject(criteria)) throw errors.badJson("room_events must be an object");
    const term = criteria["search_term"];
    if (typeof term !== "string") throw errors.badJson("search_term must be a string");
    const keysRaw = criteria["keys"] ?? KEYS;
    if (!Array.isArray(keysRaw) || keysRaw.some((k) => typeof k !== "string" || !KEYS.includes(k)))
      throw errors.badJson("keys must be a list of content.body, content.name, content.topic");
    const keys = keysRaw as string[];
    const order = criteria["order_by"] ?? "rank";
    if (order !== "rank" && order !== "recent") throw errors.badJson("order_by must be rank or recent");
    const filter = parseEventFilter(criteria["filter"]);
    const pageSize = filter.limit ?? 10;
    const nextRaw = req.query.get("next_batch");
    let offset = 0;
    if (nextRaw !== null) {
      if (!/^o\d{1,9}$/.test(nextRaw)) throw errors.invalidParam("Invalid next_batch");
      offset = Number.parseInt(nextRaw.slice(1), 10);
    }
    const wanted = words(term);
    const hits: Hit[] = [];
    for (const { roomId, membership } of ctx.rooms.roomsForUser(me.userId)) {
      if (membership !== "join") continue;
      const room = ctx.rooms.require(roomId);
      for (const ev of room.events) {
        if (ev.redactedBy || !eventMatches(filter, ev) || !canSee(room, me.userId, ev)) continue;
        const text = keys.map((k) => field(ev, k) ?? "").join(" ");
        const have = words(text);
        if (wanted.length === 0 || !wanted.every((w) => have.includes(w))) continue;
        const rank = have.filter((w) => wanted.includes(w)).length / Math.max(1, have.length);
        hits.push({ room, ev, rank });
      }
    }
    hits.sort((a, b) =>
      order === "rank" && b.rank !== a.rank ? b.rank - a.rank : b.ev.stream - a.ev.stream,
    );
    const page = hits.slice(offset, offset + pageSize);
    const ctxReq = criteria["event_context"];
    const results = page.map((h) => {
      const r: JsonObject = { rank: h.rank, result: formatEvent(ctx, h.room, h.ev, me) };
      if (isJsonObject(ctxReq)) r["context"] = eventContext(ctx, h, me, ctxReq);
      return r;
    });
    const out: JsonObject = { count: hits.length, results, highlights: wanted };
    if (offset + pageSize < hits.length) out["next_batch"] = `o${offset + pageSize}`;
    return { search_categories: { room_events: out } };
  });
}

function limitOf(obj: JsonObject, key: string): number {
  const v = obj[key] ?? 5;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0)
    throw errors.badJson(`${key} must be a non-negative integer`);
  return Math.min(v, 100);
}

function eventContext(ctx: ServerContext, hit: Hit, me: Requester, spec: JsonObject): JsonObject {
  const { room, ev } = hit;
  const before = paginate(room, me.userId, {
    from: ev.stream - 1,
    dir: "b",
    limit: limitOf(spec, "before_limit"),
  });
  const after = paginate(room, me.userId, { from: ev.stream, dir: "f", limit: limitOf(spec, "after_limit") });
  const out: JsonObject = {
    events_before: before.events.map((e) => formatEvent(ctx, room, e, me)),
    events_after: after.events.map((e) => formatEvent(ctx, room, e, me)),
    start: encodeToken((before.events[before.events.length - 1]?.stream ?? ev.stream) - 1),
    end: encodeToken(after.events[after.events.length - 1]?.stream ?? ev.stream),
  };
  if (spec["include_profile"] === true) {
    const profiles: Record<string, JsonObject> = Object.create(null) as Record<string, JsonObject>;
    for (const e of [...before.events, ev, ...after.events]) {
      const m = room.state.get(stateKey("m.room.member", e.sender));
      if (!m || !canSee(room, me.userId, m)) continue;
      const p: JsonObject = {};
      if (typeof m.content["displayname"] === "string") p["displayname"] = m.content["displayname"];
      if (typeof m.content["avatar_url"] === "string") p["avatar_url"] = m.content["avatar_url"];
      profiles[e.sender] = p;
    }
    out["profile_info"] = profiles;
  }
  return out;
}
