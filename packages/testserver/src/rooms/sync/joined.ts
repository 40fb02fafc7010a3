/**
 * One joined (or left) room's section of a /sync response: timeline with
 * limited and prev_batch, state (or MSC4222 state_after), lazy-loaded
 * members, ephemeral events, room account data, unread counts and the
 * room summary.
 */
import type { ServerContext } from "../../core/context";
import type { JsonObject, StoredEvent } from "../../core/events";
import { plainMatches, eventMatches, typeAllowed } from "../filter";
import type { SyncFilter } from "../filter";
import { formatEvent } from "../format";
import { indexAfter, paginate } from "../paginate";
import type { Room } from "../room";
import { stateKey } from "../room";
import { encodeToken } from "../tokens";
import type { LazyMemberCache } from "./lazy-cache";

export interface SyncRequestInfo {
  userId: string;
  deviceId: string;
  since?: number;
  /** The stream position this response covers up to. */
  now: number;
  filter: SyncFilter;
  fullState: boolean;
  useStateAfter: boolean;
  lazy: LazyMemberCache;
}

export interface RoomSection {
  body: JsonObject;
  /** Whether anything in the section is news to the client. */
  hasNews: boolean;
}

/** State keys of state events whose stream is in (from, to]. */
function changedKeys(room: Room, from: number, to: number): Set<string> {
  const out = new Set<string>();
  for (const ev of room.stateEvents) {
    if (ev.stream > from && ev.stream <= to) out.add(stateKey(ev.type, ev.state_key as string));
  }
  return out;
}

/**
 * Builds a room section up to `until` (now for joined rooms, the leave for
 * left ones). `initial` sends the whole state, otherwise only changes.
 */
export function roomSection(
  ctx: ServerContext,
  room: Room,
  info: SyncRequestInfo,
  until: number,
  initial: boolean,
  joined: boolean,
): RoomSection {
  const f = info.filter.room;
  const viewer = { userId: info.userId, deviceId: info.deviceId };
  const since = initial ? undefined : info.since;
  // full_state keeps the timeline incremental but sends the whole state.
  const stateSince = info.fullState ? undefined : since;
  const limit = f.timeline.limit ?? 10;
  const page = paginate(room, info.userId, {
    from: until,
    dir: "b",
    limit,
    filter: f.timeline,
    ...(since !== undefined ? { to: since } : {}),
  });
  const timeline = [...page.events].reverse();
  let limited = false;
  if (page.next !== undefined) {
    const first = room.events[indexAfter(room, since ?? 0)];
    limited = first !== undefined && first.stream <= page.next;
  }
  const start = timeline[0]?.stream ?? until + 1;
  const lazy = f.state.lazyLoadMembers;
  const keepState = (ev: StoredEvent): boolean => eventMatches(f.state, ev);

  // State: full at the timeline's start when initial; otherwise changes in the gap.
  let stateEvents: StoredEvent[];
  if (info.useStateAfter) {
    const after = room.stateAt(until);
    const keys = stateSince === undefined ? undefined : changedKeys(room, stateSince, until);
    stateEvents = [...after.entries()].filter(([k]) => !keys || keys.has(k)).map(([, e]) => e);
  } else {
    const before = room.stateAt(start - 1);
    const keys = stateSince === undefined ? undefined : changedKeys(room, stateSince, start - 1);
    stateEvents = [...before.entries()].filter(([k]) => !keys || keys.has(k)).map(([, e]) => e);
    const inTimeline = new Set(timeline.map((e) => e.event_id));
    stateEvents = stateEvents.filter((e) => !inTimeline.has(e.event_id));
  }
  stateEvents = stateEvents.filter(keepState);
  if (lazy) {
    const wanted = new Set(timeline.map((e) => e.sender));
    if (since === undefined) wanted.add(info.userId);
    // Membership that changed in this window is news, whoever sent it: state_after
    // must carry it (a kick or ban of a member who sent nothing here), as must state.
    if (stateSince !== undefined) {
      for (const e of stateEvents) if (e.type === "m.room.member" && e.state_key) wanted.add(e.state_key);
    }
    if (info.useStateAfter) {
      for (const e of timeline) if (e.type === "m.room.member" && e.state_key) wanted.add(e.state_key);
    }
    const at = info.useStateAfter ? room.stateAt(until) : room.stateAt(start - 1);
    const members: StoredEvent[] = [];
    for (const u of wanted) {
      const m = at.get(stateKey("m.room.member", u));
      if (!m || !keepState(m)) continue;
      if (!f.state.includeRedundantMembers && info.lazy.has(room.roomId, u, m.event_id)) continue;
      members.push(m);
    }
    stateEvents = stateEvents.filter(
      (e) => e.type !== "m.room.member" || (e.state_key !== undefined && wanted.has(e.state_key)),
    );
    const ids = new Set(stateEvents.map((e) => e.event_id));
    for (const m of members) if (!ids.has(m.event_id)) stateEvents.push(m);
    for (const e of [...stateEvents, ...timeline]) {
      if (e.type === "m.room.member" && e.state_key !== undefined)
        info.lazy.remember(room.roomId, e.state_key, e.event_id);
    }
  }

  const fmt = (e: StoredEvent): JsonObject => formatEvent(ctx, room, e, viewer, { omitRoomId: true });
  const body: JsonObject = {
    timeline: {
      events: timeline.map(fmt),
      limited,
      prev_batch: encodeToken(start - 1),
    },
  };
  const stateBody = { events: stateEvents.map(fmt) };
  if (info.useStateAfter) {
    body["state_after"] = stateBody;
    body["org.matrix.msc4222.state_after"] = stateBody;
  } else {
    body["state"] = stateBody;
  }
  const accountData = ctx.userData
    .roomAccountDataSince(info.userId, room.roomId, since ?? 0)
    .filter((e) => plainMatches(f.accountData, e));
  body["account_data"] = { events: accountData };
  let ephemeral: JsonObject[] = [];
  if (joined) {
    // A room joined since the last sync gets every current receipt, not only new ones.
    const myJoin = room.state.get(stateKey("m.room.member", info.userId));
    const joinedNow = since !== undefined && myJoin !== undefined && myJoin.stream > since;
    ephemeral = ctx.userData
      .ephemeralSince(info.userId, room.roomId, joinedNow ? 0 : (since ?? 0))
      .filter((e) => typeAllowed(f.ephemeral, typeof e["type"] === "string" ? e["type"] : ""));
    body["ephemeral"] = { events: ephemeral };
    const unread = ctx.userData.unreadCounts(info.userId, room.roomId);
    // Without unread_thread_notifications in the filter, thread counts are folded into the room's.
    let notificationCount = unread.notification_count;
    let highlightCount = unread.highlight_count;
    if (!f.timeline.unreadThreadNotifications) {
      for (const c of unread.threads.values()) {
        notificationCount += c.notification_count;
        highlightCount += c.highlight_count;
      }
    }
    body["unread_notifications"] = { notification_count: notificationCount, highlight_count: highlightCount };
    if (f.timeline.unreadThreadNotifications) {
      const threads: Record<string, JsonObject> = Object.create(null) as Record<string, JsonObject>;
      for (const [id, c] of unread.threads)
        threads[id] = { notification_count: c.notification_count, highlight_count: c.highlight_count };
      body["unread_thread_notifications"] = threads;
    }
    const membersChanged =
      stateSince === undefined ||
      room.stateEvents.some((e) => e.type === "m.room.member" && e.stream > stateSince && e.stream <= until);
    if (membersChanged) body["summary"] = summary(room, info.userId);
  }
  const hasNews =
    since === undefined ||
    timeline.length > 0 ||
    stateEvents.length > 0 ||
    ephemeral.length > 0 ||
    accountData.length > 0;
  return { body, hasNews };
}

/** m.heroes (when the room has no name or alias) and the member counts. */
export function summary(room: Room, userId: string): JsonObject {
  let joined = 0;
  let invited = 0;
  const candidates: Array<{ user: string; stream: number; left: boolean }> = [];
  for (const ev of room.state.values()) {
    if (ev.type !== "m.room.member" || ev.state_key === undefined) continue;
    const m = ev.content["membership"];
    if (m === "join") joined++;
    if (m === "invite") invited++;
    if (ev.state_key !== userId)
      candidates.push({ user: ev.state_key, stream: ev.stream, left: m !== "join" && m !== "invite" });
  }
  const out: JsonObject = { "m.joined_member_count": joined, "m.invited_member_count": invited };
  const named =
    room.stateContent("m.room.name")?.["name"] || room.stateContent("m.room.canonical_alias")?.["alias"];
  if (!named) {
    const active = candidates.filter((c) => !c.left);
    const pool = active.length > 0 ? active : candidates;
    out["m.heroes"] = pool
      .sort((a, b) => a.stream - b.stream)
      .slice(0, 5)
      .map((c) => c.user);
  }
  return out;
}
