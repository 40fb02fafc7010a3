/**
 * Simplified sliding sync (MSC4186, POST .../org.matrix.simplified_msc3575/sync):
 * room lists ordered by recent activity with ranges and filters, room
 * subscriptions, required_state patterns ($LAZY, $ME, *), incremental
 * timelines per connection, and the to_device, e2ee, account_data,
 * receipts and typing extensions.
 */
import type { ServerContext } from "../../core/context";
import type { JsonObject, StoredEvent } from "../../core/events";
import type { Router } from "../../http/router";
import type { HandlerRequest } from "../../http/types";
import { formatEvent, strippedState } from "../format";
import { paginate } from "../paginate";
import type { Room } from "../room";
import { stateKey } from "../room";
import { roomType } from "../room-info";
import { intQuery, requester } from "../routes/util";
import { encodeToken, parseToken } from "../tokens";
import { isWorldReadable } from "../visibility";
import { deviceListDelta, usersSharingRooms } from "./compute";
import { summary } from "./joined";
import type { Connection, RoomConfig, SlidingRequest } from "./sliding-request";
import { connectionFor, parseSlidingRequest, rememberConnection } from "./sliding-request";

export const SLIDING_PREFIX = "/_matrix/client/unstable/org.matrix.simplified_msc3575";

export function registerSlidingSyncRoutes(router: Router, ctx: ServerContext): void {
  ctx.unstableFeatures.set("org.matrix.simplified_msc3575", true);
  router.add("POST", SLIDING_PREFIX, "/sync", (req) => slidingSync(ctx, req), { guests: true });
}

interface Candidate {
  room: Room;
  membership: string;
  bump: number;
}

function candidates(ctx: ServerContext, userId: string, since: number | undefined): Candidate[] {
  const out: Candidate[] = [];
  for (const room of ctx.rooms.rooms.values()) {
    const member = room.state.get(stateKey("m.room.member", userId));
    const m = member?.content["membership"];
    if (!member || typeof m !== "string") continue;
    const left = m === "leave" || m === "ban";
    if (left && (since === undefined || member.stream <= since)) continue;
    const bump = m === "join" ? room.lastStream : member.stream;
    out.push({ room, membership: m, bump });
  }
  return out.sort((a, b) => b.bump - a.bump || a.room.roomId.localeCompare(b.room.roomId));
}

function passesFilters(c: Candidate, filters: JsonObject): boolean {
  if (typeof filters["is_invite"] === "boolean" && filters["is_invite"] !== (c.membership === "invite"))
    return false;
  if (
    typeof filters["is_encrypted"] === "boolean" &&
    filters["is_encrypted"] !== c.room.state.has(stateKey("m.room.encryption", ""))
  )
    return false;
  const type = roomType(c.room) ?? null;
  const types = filters["room_types"];
  if (Array.isArray(types) && !types.includes(type)) return false;
  const notTypes = filters["not_room_types"];
  if (Array.isArray(notTypes) && notTypes.includes(type)) return false;
  return true;
}

function mergeConfig(a: RoomConfig | undefined, b: RoomConfig): RoomConfig {
  if (!a) return { timelineLimit: b.timelineLimit, requiredState: [...b.requiredState] };
  return {
    timelineLimit: Math.max(a.timelineLimit, b.timelineLimit),
    requiredState: [...a.requiredState, ...b.requiredState],
  };
}

function wanted(
  patterns: Array<[string, string]>,
  ev: StoredEvent,
  userId: string,
  lazyUsers: Set<string>,
): boolean {
  return patterns.some(([type, key]) => {
    if (type !== "*" && type !== ev.type) return false;
    if (key === "*") return true;
    if (key === "$ME") return ev.state_key === userId;
    if (key === "$LAZY")
      return ev.type === "m.room.member" && ev.state_key !== undefined && lazyUsers.has(ev.state_key);
    return key === ev.state_key;
  });
}

type RoomCounts = ReturnType<ServerContext["userData"]["unreadCounts"]>;

/** A room's count including its threads (sync v2 without the thread filter folds them in the same way). */
function total(unread: RoomCounts, key: "notification_count" | "highlight_count"): number {
  let sum = unread[key];
  for (const c of unread.threads.values()) sum += c[key];
  return sum;
}

function roomBody(
  ctx: ServerContext,
  c: Candidate,
  config: RoomConfig,
  userId: string,
  deviceId: string,
  since: number | undefined,
  now: number,
): JsonObject {
  const { room } = c;
  const viewer = { userId, deviceId };
  if (c.membership === "invite" || c.membership === "knock") {
    const member = room.state.get(stateKey("m.room.member", userId));
    return {
      initial: since === undefined,
      invite_state: strippedState(room, member),
      bump_stamp: c.bump,
      membership: c.membership,
    };
  }
  const until = c.membership === "join" ? now : c.bump;
  const page = paginate(room, userId, {
    from: until,
    dir: "b",
    limit: config.timelineLimit,
    ...(since !== undefined ? { to: since } : {}),
  });
  const timeline = [...page.events].reverse();
  const lazyUsers = new Set(timeline.map((e) => e.sender));
  // $LAZY: a timeline sender's membership is sent even when older than the connection's
  // position (the client may never have had it); a redundant member is harmless.
  const lazy = config.requiredState.some(
    ([type, key]) => key === "$LAZY" && (type === "*" || type === "m.room.member"),
  );
  const lazyMember = (ev: StoredEvent): boolean =>
    lazy && ev.type === "m.room.member" && ev.state_key !== undefined && lazyUsers.has(ev.state_key);
  const state = [...room.stateAt(until).values()].filter(
    (ev) =>
      (since === undefined || ev.stream > since || lazyMember(ev)) &&
      wanted(config.requiredState, ev, userId, lazyUsers),
  );
  const fmt = (e: StoredEvent): JsonObject => formatEvent(ctx, room, e, viewer, { omitRoomId: true });
  const unread = ctx.userData.unreadCounts(userId, room.roomId);
  const sum = summary(room, userId);
  const out: JsonObject = {
    initial: since === undefined,
    required_state: state.map(fmt),
    timeline: timeline.map(fmt),
    prev_batch: encodeToken((timeline[0]?.stream ?? until + 1) - 1),
    limited: page.next !== undefined,
    num_live: since === undefined ? 0 : timeline.length,
    joined_count: sum["m.joined_member_count"],
    invited_count: sum["m.invited_member_count"],
    // MSC4186 counts the whole room: the main timeline and every thread.
    notification_count: total(unread, "notification_count"),
    highlight_count: total(unread, "highlight_count"),
    bump_stamp: c.bump,
    membership: c.membership,
  };
  const name = room.stateContent("m.room.name")?.["name"];
  if (typeof name === "string") out["name"] = name;
  const avatar = room.stateContent("m.room.avatar")?.["url"];
  if (typeof avatar === "string") out["avatar"] = avatar;
  const heroes = sum["m.heroes"];
  if (Array.isArray(heroes)) {
    out["heroes"] = heroes.map((u: unknown) => {
      const m = room.state.get(stateKey("m.room.member", String(u)))?.content ?? {};
      return {
        user_id: u,
        ...(typeof m["displayname"] === "string" ? { displayname: m["displayname"] } : {}),
        ...(typeof m["avatar_url"] === "string" ? { avatar_url: m["avatar_url"] } : {}),
      };
    });
  }
  return out;
}

function enabled(ext: JsonObject, name: string): JsonObject | undefined {
  const e = ext[name];
  return typeof e === "object" && e !== null && (e as JsonObject)["enabled"] === true
    ? (e as JsonObject)
    : undefined;
}

function extensions(
  ctx: ServerContext,
  req: SlidingRequest,
  userId: string,
  deviceId: string,
  since: number | undefined,
  now: number,
  roomIds: string[],
): { body: JsonObject; news: boolean } {
  const body: JsonObject = {};
  let news = false;
  const ext = req.extensions;
  const toDevice = enabled(ext, "to_device");
  if (toDevice) {
    const from =
      typeof toDevice["since"] === "string" ? parseToken(toDevice["since"], "since") : (since ?? 0);
    const events = ctx.accounts.toDeviceSince(userId, deviceId, from);
    news ||= events.length > 0;
    body["to_device"] = { next_batch: encodeToken(now), events };
  }
  if (enabled(ext, "e2ee")) {
    const lists =
      since === undefined
        ? { changed: [], left: [] }
        : deviceListDelta(ctx, userId, since, now, usersSharingRooms(ctx, userId));
    news ||= lists.changed.length > 0 || lists.left.length > 0;
    body["e2ee"] = {
      device_lists: lists,
      device_one_time_keys_count: ctx.accounts.oneTimeKeyCounts(userId, deviceId),
      device_unused_fallback_key_types: ctx.accounts.unusedFallbackKeyTypes(userId, deviceId),
    };
  }
  if (enabled(ext, "account_data")) {
    const global = ctx.userData.globalAccountDataSince(userId, since ?? 0);
    const rooms: Record<string, JsonObject[]> = Object.create(null) as Record<string, JsonObject[]>;
    for (const id of roomIds) {
      const events = ctx.userData.roomAccountDataSince(userId, id, since ?? 0);
      if (events.length > 0) rooms[id] = events;
    }
    news ||= global.length > 0 || Object.keys(rooms).length > 0;
    body["account_data"] = { global, rooms };
  }
  const receipts = enabled(ext, "receipts");
  const typing = enabled(ext, "typing");
  if (receipts || typing) {
    const r: Record<string, JsonObject> = Object.create(null) as Record<string, JsonObject>;
    const t: Record<string, JsonObject> = Object.create(null) as Record<string, JsonObject>;
    for (const id of roomIds) {
      if (ctx.rooms.membershipOf(id, userId) !== "join") continue;
      for (const ev of ctx.userData.ephemeralSince(userId, id, since ?? 0)) {
        if (ev["type"] === "m.receipt") r[id] = ev;
        if (ev["type"] === "m.typing") t[id] = ev;
      }
    }
    if (receipts) {
      body["receipts"] = { rooms: r };
      news ||= Object.keys(r).length > 0;
    }
    if (typing) {
      body["typing"] = { rooms: t };
      news ||= since !== undefined && Object.keys(t).length > 0;
    }
  }
  return { body, news };
}

function compute(
  ctx: ServerContext,
  req: SlidingRequest,
  conn: Connection,
  userId: string,
  deviceId: string,
  since: number | undefined,
  now: number,
): { body: JsonObject; news: boolean } {
  const all = candidates(ctx, userId, since);
  const chosen = new Map<string, { c: Candidate; config: RoomConfig }>();
  const lists: Record<string, JsonObject> = Object.create(null) as Record<string, JsonObject>;
  for (const list of req.lists) {
    const matching = all.filter((c) => passesFilters(c, list.filters));
    lists[list.name] = { count: matching.length };
    for (const [start, end] of list.ranges) {
      for (const c of matching.slice(start, end + 1)) {
        chosen.set(c.room.roomId, { c, config: mergeConfig(chosen.get(c.room.roomId)?.config, list) });
      }
    }
  }
  for (const [roomId, config] of req.subscriptions) {
    const room = ctx.rooms.rooms.get(roomId);
    if (!room) continue;
    const c =
      all.find((x) => x.room.roomId === roomId) ??
      (isWorldReadable(room) ? { room, membership: "leave", bump: room.lastStream } : undefined);
    if (c) chosen.set(roomId, { c, config: mergeConfig(chosen.get(roomId)?.config, config) });
  }
  const rooms: Record<string, JsonObject> = Object.create(null) as Record<string, JsonObject>;
  let news = false;
  for (const [roomId, { c, config }] of chosen) {
    // A negative mark: the room was last sent as stripped state (invite, knock).
    const mark = conn.get(roomId);
    const sentUpTo = mark === undefined ? undefined : Math.abs(mark);
    const changed = sentUpTo === undefined || c.bump > sentUpTo || c.room.lastStream > sentUpTo;
    if (!changed) continue;
    // Once joined (or left), a room sent only as stripped state is sent whole, as the first time.
    const stripped = mark !== undefined && mark < 0 && c.membership !== "invite" && c.membership !== "knock";
    rooms[roomId] = roomBody(ctx, c, config, userId, deviceId, stripped ? undefined : sentUpTo, now);
    news = true;
  }
  const ext = extensions(ctx, req, userId, deviceId, since, now, [...chosen.keys()]);
  return { body: { pos: encodeToken(now), lists, rooms, extensions: ext.body }, news: news || ext.news };
}

async function slidingSync(ctx: ServerContext, req: HandlerRequest): Promise<JsonObject> {
  const me = requester(req);
  const posRaw = req.query.get("pos");
  const since = posRaw ? parseToken(posRaw, "pos") : undefined;
  const request = parseSlidingRequest(req.body);
  const conn = connectionFor(ctx, me.userId, me.deviceId, request.connId, posRaw || undefined);
  const timeout = intQuery(req, "timeout", 0, 0, 5 * 60_000);
  const deadline = Date.now() + timeout;
  for (;;) {
    const now = ctx.notifier.position;
    const result = compute(ctx, request, conn, me.userId, me.deviceId, since, now);
    const remaining = deadline - Date.now();
    if (since === undefined || result.news || remaining <= 0 || req.signal.aborted) {
      const sent = result.body["rooms"] as Record<string, JsonObject>;
      for (const roomId of Object.keys(sent)) conn.set(roomId, "invite_state" in sent[roomId]! ? -now : now);
      rememberConnection(ctx, me.userId, me.deviceId, request.connId, String(result.body["pos"]), conn);
      return result.body;
    }
    await ctx.notifier.waitForChange(remaining, req.signal);
  }
}
