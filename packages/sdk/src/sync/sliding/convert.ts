/**
 * Converts one sliding sync (MSC4186) answer into the sync v2 response shape
 * the processor already reads, so validation, the accumulator, the store and
 * the models work unchanged whichever protocol fetched the batch.
 *
 * Mapping: `membership` picks the section (invite, knock, leave/ban, else
 * join), or, where the server leaves it out (Synapse), the stripped state and
 * the user's own member event do; `required_state` becomes `state` (the processor then applies the
 * timeline's state events, which the current state already ends with);
 * counts become `unread_notifications` and `summary`; heroes become
 * `m.heroes`; the receipts and typing extensions become each room's
 * `ephemeral`; account_data, to_device and e2ee go where v2 puts them.
 * Rooms are inserted by descending bump_stamp, so iterating a section gives
 * the room list's recency order. Anything malformed is passed through for
 * the processor's validation to reject or skip, as it does for v2.
 */
import type { BasicEvent, EphemeralEvent } from "../../api/types/events";
import type {
  InvitedRoom,
  JoinedRoom,
  KnockedRoom,
  LeftRoom,
  RoomSummary,
  SyncResponse,
  SyncRooms,
} from "../../api/types/sync";
import type { SlidingRoom, SlidingSyncResponse } from "./types";

type Section = "join" | "invite" | "knock" | "leave";

/** The user's own membership in the newest m.room.member event of `events` about them. */
function ownMembershipIn(events: unknown, userId: string | undefined): string | undefined {
  if (userId === undefined || !Array.isArray(events)) return undefined;
  for (let i = events.length - 1; i >= 0; i--) {
    const e: unknown = events[i];
    if (!isRecord(e) || e["type"] !== "m.room.member" || e["state_key"] !== userId) continue;
    const membership = isRecord(e["content"]) ? e["content"]["membership"] : undefined;
    if (typeof membership === "string") return membership;
  }
  return undefined;
}

/**
 * The room's section. `membership` says it where the server sends it; Synapse
 * does not, so without it: stripped state means an invite (a knock when the
 * user's own stripped member event says so), and otherwise the user's own
 * newest member event (timeline, then required_state) tells a kick, ban or
 * leave from a join.
 */
function sectionOf(room: SlidingRoom, userId: string | undefined): Section {
  const membership =
    room.membership ??
    (Array.isArray(room.invite_state) && room.invite_state.length > 0
      ? ownMembershipIn(room.invite_state, userId) === "knock"
        ? "knock"
        : "invite"
      : Array.isArray(room.knock_state) && room.knock_state.length > 0
        ? "knock"
        : (ownMembershipIn(room.timeline, userId) ?? ownMembershipIn(room.required_state, userId)));
  switch (membership) {
    case "invite":
      return "invite";
    case "knock":
      return "knock";
    case "leave":
    case "ban":
      return "leave";
    default:
      return "join";
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function list<T>(value: T[] | undefined): T[] {
  return Array.isArray(value) ? value : [];
}

function summaryOf(room: SlidingRoom): RoomSummary | undefined {
  const summary: RoomSummary = {};
  if (Array.isArray(room.heroes)) {
    summary["m.heroes"] = room.heroes
      .map((hero) => (isRecord(hero) ? hero.user_id : undefined))
      .filter((id): id is string => typeof id === "string");
  }
  if (typeof room.joined_count === "number") summary["m.joined_member_count"] = room.joined_count;
  if (typeof room.invited_count === "number") summary["m.invited_member_count"] = room.invited_count;
  return Object.keys(summary).length > 0 ? summary : undefined;
}

function timelineOf(room: SlidingRoom): NonNullable<JoinedRoom["timeline"]> {
  return {
    events: list(room.timeline),
    ...(room.limited === true ? { limited: true } : {}),
    ...(typeof room.prev_batch === "string" ? { prev_batch: room.prev_batch } : {}),
  };
}

function joinedOf(room: SlidingRoom): JoinedRoom {
  const out: JoinedRoom = {
    state: { events: list(room.required_state) },
    timeline: timelineOf(room),
  };
  const summary = summaryOf(room);
  if (summary) out.summary = summary;
  if (typeof room.notification_count === "number" || typeof room.highlight_count === "number") {
    out.unread_notifications = {
      notification_count: typeof room.notification_count === "number" ? room.notification_count : 0,
      highlight_count: typeof room.highlight_count === "number" ? room.highlight_count : 0,
    };
  }
  return out;
}

function bumpOf(room: unknown): number {
  return isRecord(room) && typeof room["bump_stamp"] === "number" ? room["bump_stamp"] : -Infinity;
}

/** Rooms of the answer as v2 sections, most recent first. */
function convertRooms(rooms: Record<string, SlidingRoom>, userId: string | undefined): Required<SyncRooms> {
  const out: Required<SyncRooms> = { join: {}, invite: {}, knock: {}, leave: {} };
  // Room ids are data: own keys only, never the prototype ("__proto__" is a valid id).
  const entries = Object.entries(rooms).sort(([, a], [, b]) => bumpOf(b) - bumpOf(a));
  for (const [roomId, room] of entries) {
    if (typeof room !== "object" || room === null || Array.isArray(room)) continue;
    const section = sectionOf(room, userId);
    let converted: JoinedRoom | InvitedRoom | KnockedRoom | LeftRoom;
    if (section === "invite") converted = { invite_state: { events: list(room.invite_state) } };
    else if (section === "knock") converted = { knock_state: { events: list(room.knock_state) } };
    else if (section === "leave")
      converted = { state: { events: list(room.required_state) }, timeline: timelineOf(room) };
    else converted = joinedOf(room);
    define(out[section], roomId, converted);
  }
  return out;
}

/** Sets a key as an own data property (a plain assignment to "__proto__" would set the prototype). */
function define<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function own<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** The room's entry for per-room extension data: its existing section, else a joined entry. */
function roomEntry(rooms: Required<SyncRooms>, roomId: string): JoinedRoom | LeftRoom | undefined {
  if (own(rooms.invite, roomId) !== undefined || own(rooms.knock, roomId) !== undefined) return undefined;
  const left = own(rooms.leave, roomId);
  if (left) return left;
  let joined = own(rooms.join, roomId);
  if (!joined) {
    joined = {};
    define(rooms.join, roomId, joined);
  }
  return joined;
}

function addEphemeral(rooms: Required<SyncRooms>, byRoom: unknown): void {
  if (!isRecord(byRoom)) return;
  for (const [roomId, event] of Object.entries(byRoom)) {
    if (!isRecord(event)) continue;
    // Receipts and typing are for joined rooms only.
    if (own(rooms.leave, roomId) !== undefined) continue;
    const entry = roomEntry(rooms, roomId);
    if (!entry || !isJoined(rooms, roomId, entry)) continue;
    const events: EphemeralEvent[] = entry.ephemeral?.events ?? [];
    events.push(event as unknown as EphemeralEvent);
    entry.ephemeral = { events };
  }
}

function isJoined(
  rooms: Required<SyncRooms>,
  roomId: string,
  entry: JoinedRoom | LeftRoom,
): entry is JoinedRoom {
  return own(rooms.join, roomId) === entry;
}

function addRoomAccountData(rooms: Required<SyncRooms>, byRoom: unknown): void {
  if (!isRecord(byRoom)) return;
  for (const [roomId, events] of Object.entries(byRoom)) {
    if (!Array.isArray(events) || events.length === 0) continue;
    const entry = roomEntry(rooms, roomId);
    if (entry) entry.account_data = { events: events as BasicEvent[] };
  }
}

/** The v2-shaped response of one sliding sync answer; `nextBatch` is the loop token to continue from. */
export function toSyncResponse(
  answer: SlidingSyncResponse,
  nextBatch: string,
  userId?: string,
): SyncResponse {
  const rooms = convertRooms(isRecord(answer.rooms) ? answer.rooms : {}, userId);
  const ext = isRecord(answer.extensions) ? answer.extensions : {};
  const out: SyncResponse = { next_batch: nextBatch };
  if (isRecord(ext.receipts)) addEphemeral(rooms, ext.receipts.rooms);
  if (isRecord(ext.typing)) addEphemeral(rooms, ext.typing.rooms);
  if (isRecord(ext.account_data)) {
    addRoomAccountData(rooms, ext.account_data.rooms);
    if (Array.isArray(ext.account_data.global)) out.account_data = { events: ext.account_data.global };
  }
  out.rooms = rooms;
  if (isRecord(ext.to_device) && Array.isArray(ext.to_device.events)) {
    out.to_device = { events: ext.to_device.events };
  }
  const e2ee = ext.e2ee;
  if (isRecord(e2ee)) {
    if (isRecord(e2ee.device_lists)) out.device_lists = e2ee.device_lists;
    if (isRecord(e2ee.device_one_time_keys_count))
      out.device_one_time_keys_count = e2ee.device_one_time_keys_count;
    if (Array.isArray(e2ee.device_unused_fallback_key_types))
      out.device_unused_fallback_key_types = e2ee.device_unused_fallback_key_types;
  }
  return out;
}
