/**
 * The validation phase: turns an untrusted GET /sync answer into a typed
 * ParsedSync. Every room id, event and field is type-checked; bad items are
 * dropped with a log line naming why; unknown fields are ignored. It throws
 * only when the answer is not an object or has no next_batch, so the loop
 * fetches it again; or, as SyncProtocolError, when its next_batch would not
 * survive a round trip (tokens.ts), which stops the loop.
 */
import type { Logger } from "../../util/logger";
import type { BasicEvent, ClientEventWithoutRoomId, StrippedStateEvent } from "../../api/types/events";
import type { ParseContext } from "./events";
import {
  DropLog,
  parseBasicEvent,
  parseRoomEvent,
  parseSenderEvent,
  parseStateEvent,
  parseStrippedEvent,
} from "./events";
import { isBoundedString, isCount, isJsonObject } from "./json";
import type { ValidationLimits } from "./limits";
import { DEFAULT_VALIDATION_LIMITS } from "./limits";
import { isEchoableToken } from "./tokens";
import { emptyParsedSync } from "./types";
import type {
  ParsedJoinedRoom,
  ParsedLeftRoom,
  ParsedSummary,
  ParsedSync,
  ParsedTimeline,
  UnreadCounts,
} from "./types";

/** The sync answer cannot be used at all (not an object, no next_batch). */
export class SyncParseError extends Error {
  override readonly name: string = "SyncParseError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** SyncProtocolError's message: the server issued a token the client cannot send back unchanged. */
export const UNUSABLE_NEXT_BATCH_MESSAGE = "Invalid sync response: next_batch does not survive a round trip";

/**
 * The server broke the protocol in a way a retry cannot mend: its
 * next_batch would not reach it again unchanged (tokens.ts). The SyncLoop
 * stops on it (kind "protocol") instead of fetching the batch again.
 */
export class SyncProtocolError extends SyncParseError {
  override readonly name = "SyncProtocolError";
  constructor(message: string = UNUSABLE_NEXT_BATCH_MESSAGE, options?: { cause?: unknown }) {
    super(message, options);
  }
}

export interface ParseSyncOptions {
  logger: Pick<Logger, "warn">;
  limits?: ValidationLimits;
}

/** Validates one sync response. Throws SyncParseError only for an unusable answer. */
export function parseSyncResponse(raw: unknown, options: ParseSyncOptions): ParsedSync {
  if (!isJsonObject(raw)) throw new SyncParseError("Invalid sync response: not an object");
  const limits = options.limits ?? DEFAULT_VALIDATION_LIMITS;
  const nextBatch = raw["next_batch"];
  if (!isBoundedString(nextBatch, limits.maxStringLength)) {
    throw new SyncParseError("Invalid sync response: missing next_batch");
  }
  if (!isEchoableToken(nextBatch, limits.maxStringLength)) throw new SyncProtocolError();
  const drops = new DropLog(options.logger);
  const ctx: ParseContext = { limits, drops };
  const out = emptyParsedSync(nextBatch);
  // Timeline event ids are unique across the whole batch: a repeat is hostile or a server bug.
  const timelineSeen = new Set<string>();

  const rooms = raw["rooms"];
  if (isJsonObject(rooms)) {
    forEachRoom(rooms["join"], ctx, "join", (roomId, room) => {
      out.rooms.join.set(roomId, parseJoinedRoom(roomId, room, ctx, timelineSeen));
    });
    forEachRoom(rooms["invite"], ctx, "invite", (roomId, room) => {
      out.rooms.invite.set(roomId, {
        inviteState: strippedList(room["invite_state"], ctx, roomId, "invite_state"),
      });
    });
    forEachRoom(rooms["knock"], ctx, "knock", (roomId, room) => {
      out.rooms.knock.set(roomId, {
        knockState: strippedList(room["knock_state"], ctx, roomId, "knock_state"),
      });
    });
    forEachRoom(rooms["leave"], ctx, "leave", (roomId, room) => {
      out.rooms.leave.set(roomId, parseLeftRoom(roomId, room, ctx, timelineSeen));
    });
  }

  out.presence = eventList(raw["presence"], (e) => parseSenderEvent(e, ctx, "presence event"));
  out.accountData = eventList(raw["account_data"], (e) => parseBasicEvent(e, ctx, "account data event"));
  out.toDevice = eventList(raw["to_device"], (e) => parseSenderEvent(e, ctx, "to-device event"));

  const deviceLists = raw["device_lists"];
  if (isJsonObject(deviceLists)) {
    out.deviceLists = {
      changed: userIdList(deviceLists["changed"], ctx, "device_lists.changed"),
      left: userIdList(deviceLists["left"], ctx, "device_lists.left"),
    };
  }
  const otk = raw["device_one_time_keys_count"];
  if (isJsonObject(otk)) {
    const counts = new Map<string, number>();
    for (const [algorithm, count] of Object.entries(otk)) {
      if (isBoundedString(algorithm, limits.maxIdLength) && isCount(count)) counts.set(algorithm, count);
      else drops.drop("one-time key count", "invalid algorithm or count", algorithm);
    }
    out.oneTimeKeysCount = counts;
  }
  const fallback =
    raw["device_unused_fallback_key_types"] ?? raw["org.matrix.msc2732.device_unused_fallback_key_types"];
  if (Array.isArray(fallback)) {
    out.unusedFallbackKeyTypes = fallback.filter((t): t is string => isBoundedString(t, limits.maxIdLength));
  }
  drops.finish();
  return out;
}

/** Calls `fn` for each valid room id with an object body; drops the rest. */
function forEachRoom(
  section: unknown,
  ctx: ParseContext,
  category: string,
  fn: (roomId: string, room: Record<string, unknown>) => void,
): void {
  if (!isJsonObject(section)) return;
  for (const [roomId, room] of Object.entries(section)) {
    if (!isBoundedString(roomId, ctx.limits.maxIdLength) || !roomId.startsWith("!")) {
      ctx.drops.drop(`room in rooms.${category}`, "invalid room id", roomId);
    } else if (!isJsonObject(room)) {
      ctx.drops.drop(`room in rooms.${category}`, "room is not an object", roomId);
    } else {
      fn(roomId, room);
    }
  }
}

/** The `events` array of a batch object, each parsed; anything else is an empty list. */
function eventList<T>(batch: unknown, parse: (raw: unknown) => T | null): T[] {
  if (!isJsonObject(batch)) return [];
  const events = batch["events"];
  if (!Array.isArray(events)) return [];
  const out: T[] = [];
  for (const raw of events as unknown[]) {
    const event = parse(raw);
    if (event !== null) out.push(event);
  }
  return out;
}

function stateList(batch: unknown, ctx: ParseContext, where: string): ClientEventWithoutRoomId[] {
  const seen = new Set<string>();
  return eventList(batch, (e) => parseStateEvent(e, ctx, where, seen));
}

function strippedList(
  batch: unknown,
  ctx: ParseContext,
  roomId: string,
  section: string,
): StrippedStateEvent[] {
  const where = `event in ${roomId} ${section}`;
  return eventList(batch, (e) => parseStrippedEvent(e, ctx, where));
}

function accountDataList(batch: unknown, ctx: ParseContext, roomId: string): BasicEvent[] {
  const where = `account data event in ${roomId}`;
  return eventList(batch, (e) => parseBasicEvent(e, ctx, where));
}

function parseTimeline(batch: unknown, ctx: ParseContext, roomId: string, seen: Set<string>): ParsedTimeline {
  // Built once per room, not once per event (a template literal in the callback allocates per call).
  const where = `event in ${roomId} timeline`;
  const events = eventList(batch, (e) => parseRoomEvent(e, ctx, where, seen));
  const timeline: ParsedTimeline = { events, limited: false };
  if (isJsonObject(batch)) {
    timeline.limited = batch["limited"] === true;
    const prevBatch = batch["prev_batch"];
    if (isEchoableToken(prevBatch, ctx.limits.maxStringLength)) timeline.prevBatch = prevBatch;
    else if (prevBatch !== undefined && prevBatch !== null)
      ctx.drops.drop(`prev_batch of ${roomId}`, "not a token that survives a round trip");
  }
  return timeline;
}

/** MSC4222 state_after under the stable or the unstable name; undefined when absent. */
function stateAfter(room: Record<string, unknown>, ctx: ParseContext, roomId: string) {
  const batch = room["state_after"] ?? room["org.matrix.msc4222.state_after"];
  return isJsonObject(batch) ? stateList(batch, ctx, `event in ${roomId} state_after`) : undefined;
}

function parseJoinedRoom(
  roomId: string,
  room: Record<string, unknown>,
  ctx: ParseContext,
  seen: Set<string>,
): ParsedJoinedRoom {
  const ephemeralWhere = `ephemeral event in ${roomId}`;
  const parsed: ParsedJoinedRoom = {
    state: stateList(room["state"], ctx, `event in ${roomId} state`),
    timeline: parseTimeline(room["timeline"], ctx, roomId, seen),
    ephemeral: eventList(room["ephemeral"], (e) => parseBasicEvent(e, ctx, ephemeralWhere)),
    accountData: accountDataList(room["account_data"], ctx, roomId),
  };
  const after = stateAfter(room, ctx, roomId);
  if (after) parsed.stateAfter = after;
  const sticky = room["msc4354_sticky"];
  if (isJsonObject(sticky)) {
    // The server leaves out sticky events the timeline already has; its own dedup set, not the timeline's.
    const where = `event in ${roomId} msc4354_sticky`;
    parsed.sticky = eventList(sticky, (e) => parseRoomEvent(e, ctx, where, new Set<string>()));
  }
  const summary = parseSummary(room["summary"], ctx);
  if (summary) parsed.summary = summary;
  const unread = parseCounts(room["unread_notifications"]);
  if (unread) parsed.unreadNotifications = unread;
  const threads = room["unread_thread_notifications"];
  if (isJsonObject(threads)) {
    const map = new Map<string, UnreadCounts>();
    for (const [threadId, counts] of Object.entries(threads)) {
      const parsedCounts = parseCounts(counts);
      if (isBoundedString(threadId, ctx.limits.maxIdLength) && parsedCounts) map.set(threadId, parsedCounts);
      else ctx.drops.drop(`thread counts in ${roomId}`, "invalid thread id or counts", threadId);
    }
    parsed.unreadThreadNotifications = map;
  }
  return parsed;
}

function parseLeftRoom(
  roomId: string,
  room: Record<string, unknown>,
  ctx: ParseContext,
  seen: Set<string>,
): ParsedLeftRoom {
  const parsed: ParsedLeftRoom = {
    state: stateList(room["state"], ctx, `event in ${roomId} state`),
    timeline: parseTimeline(room["timeline"], ctx, roomId, seen),
    accountData: accountDataList(room["account_data"], ctx, roomId),
  };
  const after = stateAfter(room, ctx, roomId);
  if (after) parsed.stateAfter = after;
  return parsed;
}

function parseSummary(raw: unknown, ctx: ParseContext): ParsedSummary | undefined {
  if (!isJsonObject(raw)) return undefined;
  const summary: ParsedSummary = {};
  const heroes = raw["m.heroes"];
  if (Array.isArray(heroes)) {
    summary.heroes = heroes.filter((h): h is string => isBoundedString(h, ctx.limits.maxIdLength));
  }
  if (isCount(raw["m.joined_member_count"])) summary.joinedMemberCount = raw["m.joined_member_count"];
  if (isCount(raw["m.invited_member_count"])) summary.invitedMemberCount = raw["m.invited_member_count"];
  return summary;
}

/** Notification counts; a missing count is 0, a malformed block is ignored. */
function parseCounts(raw: unknown): UnreadCounts | undefined {
  if (!isJsonObject(raw)) return undefined;
  const highlight = raw["highlight_count"] ?? 0;
  const notification = raw["notification_count"] ?? 0;
  if (!isCount(highlight) || !isCount(notification)) return undefined;
  return { highlightCount: highlight, notificationCount: notification };
}

function userIdList(raw: unknown, ctx: ParseContext, where: string): string[] {
  if (!Array.isArray(raw)) return [];
  const out: string[] = [];
  for (const id of raw as unknown[]) {
    if (isBoundedString(id, ctx.limits.maxIdLength) && id.startsWith("@")) out.push(id);
    else ctx.drops.drop(`user id in ${where}`, "invalid user id");
  }
  return out;
}
