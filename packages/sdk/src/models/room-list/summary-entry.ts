/**
 * The room list summary's record: per room, what the room list shows
 * (name, avatar, membership, tags, DM/space/encryption flags, space links,
 * unread and thread counts, the latest event) as a few state events, counts
 * and the computed name. `entryOf` builds an entry from a live snapshot;
 * `parseSummaryRecord` reads a stored record back, refusing a record of
 * another version or shape and dropping malformed entries, so a corrupt
 * summary falls back to the full load.
 */
import { ROOM_PREDECESSOR_EVENT } from "../../api/unstable";
import type { BasicEvent, ClientEventWithoutRoomId } from "../../api/types/events";
import type { ParsedSummary, UnreadCounts } from "../../sync/validate/types";
import { isJsonObject } from "../json";
import type { RoomName } from "../room-name";
import type { RoomCategory, RoomSnapshot } from "../room/Room";
import type { StateEntry } from "../room/RoomState";

/** The stored record's version; another version is ignored (full load). 2: stored in parts. */
export const ROOM_LIST_SUMMARY_VERSION = 2;

/** The most parts a stored summary may claim (a corrupt count is refused). */
const MAX_PARTS = 10_000;

/** State types the room list reads (all state keys of each). */
const LIST_STATE_TYPES = [
  "m.room.name",
  "m.room.canonical_alias",
  "m.room.avatar",
  "m.room.topic",
  "m.room.create",
  "m.room.encryption",
  "m.space.child",
  "m.space.parent",
  // Upgrades: a room replaced by a joined one is left out of the list from the first paint.
  "m.room.tombstone",
  ROOM_PREDECESSOR_EVENT.unstable,
] as const;

const CATEGORIES: ReadonlySet<string> = new Set(["join", "invite", "leave", "knock"]);
const NAME_KINDS: ReadonlySet<string> = new Set(["named", "alias", "heroes", "empty", "empty_was"]);

/** One room of the summary: what a Room shows until its full state loads (Room.seed). */
export interface RoomListSummaryEntry {
  readonly roomId: string;
  readonly category: RoomCategory;
  /** The name computed from the full state (member names need every member to disambiguate). */
  readonly name: RoomName;
  /** The list's state events: name, avatar, topic, create, encryption, space links, a few members. */
  readonly state: readonly StateEntry[];
  readonly summary: ParsedSummary;
  readonly unread: UnreadCounts;
  readonly threadUnread: ReadonlyArray<readonly [string, UnreadCounts]>;
  /** The room's m.tag event, when it has one. */
  readonly accountData: readonly BasicEvent[];
  readonly latestEvent?: ClientEventWithoutRoomId;
  /** The room list's preview event, when it is not the latest event (Room's previewEvent). */
  readonly previewEvent?: ClientEventWithoutRoomId;
}

/** The whole summary, as built from the live rooms. */
export interface RoomListSummaryRecord {
  readonly version: number;
  readonly rooms: readonly RoomListSummaryEntry[];
  /** Global account data the rows depend on (m.direct: the DM flags). */
  readonly accountData: readonly BasicEvent[];
}

/**
 * One stored part of the summary (a get each): part 0 holds the first
 * screenful, the account data and how many parts there are; the others
 * hold the remaining rooms.
 */
export interface RoomListSummaryPart {
  readonly version: number;
  readonly part: number;
  /** How many parts the summary has (part 0 only; 1 elsewhere). */
  readonly parts: number;
  readonly rooms: readonly RoomListSummaryEntry[];
  /** Part 0 only (empty elsewhere). */
  readonly accountData: readonly BasicEvent[];
}

/** A state event as stripped state: what the list reads (no ids, times or unsigned). */
function slim(event: StateEntry): StateEntry {
  return { type: event.type, state_key: event.state_key ?? "", sender: event.sender, content: event.content };
}

/** The latest event without unsigned data beyond the redaction mark the preview reads. */
function slimLatest(event: ClientEventWithoutRoomId): ClientEventWithoutRoomId {
  const { unsigned, ...rest } = event;
  const redactedBecause = unsigned?.redacted_because;
  return redactedBecause !== undefined ? { ...rest, unsigned: { redacted_because: redactedBecause } } : rest;
}

/** The summary entry of a room snapshot. */
export function entryOf(snap: RoomSnapshot, userId: string): RoomListSummaryEntry {
  const state: StateEntry[] = [];
  for (const type of LIST_STATE_TYPES) for (const e of snap.state.ofType(type).values()) state.push(slim(e));
  // The members the row reads: the user (an invite's inviter), the heroes, the DM partner, the latest sender.
  const members = new Set<string>([userId, ...(snap.summary.heroes ?? [])]);
  if (snap.directUserId !== undefined) members.add(snap.directUserId);
  if (snap.latestEvent !== undefined) members.add(snap.latestEvent.sender);
  if (snap.previewEvent !== undefined) members.add(snap.previewEvent.sender);
  for (const id of members) {
    const member = snap.state.get("m.room.member", id);
    if (member !== undefined) state.push(slim(member));
  }
  const tag = snap.accountData.get("m.tag");
  return {
    roomId: snap.roomId,
    category: snap.category,
    name: { kind: snap.name.kind, name: snap.name.name },
    state,
    summary: snap.summary,
    unread: snap.unread,
    threadUnread: [...snap.threadUnread],
    accountData: tag !== undefined ? [tag] : [],
    ...(snap.latestEvent !== undefined ? { latestEvent: slimLatest(snap.latestEvent) } : {}),
    ...(snap.previewEvent !== undefined && snap.previewEvent !== snap.latestEvent
      ? { previewEvent: slimLatest(snap.previewEvent) }
      : {}),
  };
}

function isCounts(value: unknown): value is UnreadCounts {
  return (
    isJsonObject(value) &&
    typeof value["highlightCount"] === "number" &&
    typeof value["notificationCount"] === "number"
  );
}

function isEvent(value: unknown): boolean {
  return isJsonObject(value) && typeof value["type"] === "string" && isJsonObject(value["content"]);
}

function isEntry(value: unknown): value is RoomListSummaryEntry {
  if (!isJsonObject(value)) return false;
  const {
    roomId,
    category,
    name,
    state,
    summary,
    unread,
    threadUnread,
    accountData,
    latestEvent,
    previewEvent,
  } = value;
  return (
    typeof roomId === "string" &&
    typeof category === "string" &&
    CATEGORIES.has(category) &&
    isJsonObject(name) &&
    typeof name["name"] === "string" &&
    typeof name["kind"] === "string" &&
    NAME_KINDS.has(name["kind"]) &&
    Array.isArray(state) &&
    state.every((e) => isEvent(e) && typeof (e as Record<string, unknown>)["state_key"] === "string") &&
    isJsonObject(summary) &&
    isCounts(unread) &&
    Array.isArray(threadUnread) &&
    threadUnread.every((t) => Array.isArray(t) && typeof t[0] === "string" && isCounts(t[1])) &&
    Array.isArray(accountData) &&
    accountData.every(isEvent) &&
    (latestEvent === undefined || isTimelineEvent(latestEvent)) &&
    (previewEvent === undefined || isTimelineEvent(previewEvent))
  );
}

function isTimelineEvent(value: unknown): boolean {
  return (
    isEvent(value) &&
    typeof (value as Record<string, unknown>)["event_id"] === "string" &&
    typeof (value as Record<string, unknown>)["sender"] === "string" &&
    typeof (value as Record<string, unknown>)["origin_server_ts"] === "number"
  );
}

/**
 * Stored part `part` of a summary, or null when it is missing, of another
 * version, another part or not a part (then the room list waits for the
 * full load for its rooms). Malformed entries are dropped; the full load
 * brings those rooms.
 */
export function parseSummaryPart(raw: unknown, part: number): RoomListSummaryPart | null {
  if (!isJsonObject(raw) || raw["version"] !== ROOM_LIST_SUMMARY_VERSION || !Array.isArray(raw["rooms"]))
    return null;
  if (raw["part"] !== part) return null;
  const parts = part === 0 ? raw["parts"] : 1;
  if (typeof parts !== "number" || !Number.isInteger(parts) || parts < 1 || parts > MAX_PARTS) return null;
  const accountData = part === 0 && Array.isArray(raw["accountData"]) ? raw["accountData"] : [];
  return {
    version: ROOM_LIST_SUMMARY_VERSION,
    part,
    parts,
    rooms: raw["rooms"].filter(isEntry),
    accountData: accountData.filter((e): e is BasicEvent => isEvent(e)),
  };
}

/**
 * The stored parts of `record`: part 0 the rooms of `first` (the first
 * screenful) with the account data, then the others `perPart` at a time.
 */
export function summaryParts(
  record: RoomListSummaryRecord,
  first: ReadonlySet<RoomListSummaryEntry>,
  perPart: number,
): RoomListSummaryPart[] {
  const rest = record.rooms.filter((e) => !first.has(e));
  const parts = 1 + Math.ceil(rest.length / perPart);
  const out: RoomListSummaryPart[] = [
    { version: record.version, part: 0, parts, rooms: [...first], accountData: record.accountData },
  ];
  for (let i = 1; i < parts; i++)
    out.push({
      version: record.version,
      part: i,
      parts: 1,
      rooms: rest.slice((i - 1) * perPart, i * perPart),
      accountData: [],
    });
  return out;
}
