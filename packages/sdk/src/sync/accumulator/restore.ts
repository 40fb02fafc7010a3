/**
 * Reading a stored snapshot back into a SyncAccumulator. A record of
 * another version, or not an object, is refused (the caller discards the
 * cache and syncs afresh). The events inside were validated before we stored
 * them, so they get a cheap structural check only (stored-events.ts), not a
 * second validation; a malformed room or event is dropped with a log line.
 */
import type { Logger } from "../../util/logger";
import type { ParseContext } from "../validate/events";
import { DropLog } from "../validate/events";
import { isBoundedString, isCount, isJsonObject } from "../validate/json";
import { DEFAULT_VALIDATION_LIMITS } from "../validate/limits";
import type { UnreadCounts } from "../validate/types";
import { SyncAccumulator } from "./SyncAccumulator";
import type { SyncAccumulatorOptions } from "./SyncAccumulator";
import { storedBasicEvent, storedRoomEvent, storedStrippedEvent } from "./stored-events";
import { ROOMS_DATA_VERSION } from "./stored-types";

/** The stored snapshot cannot be read (wrong version or shape). */
export class SnapshotFormatError extends Error {
  override readonly name = "SnapshotFormatError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

export interface RestoreOptions extends SyncAccumulatorOptions {
  logger: Pick<Logger, "warn">;
}

/** Builds an accumulator from StoredSync.roomsData and the stored global account data. */
export function restoreAccumulator(
  roomsData: unknown,
  accountData: readonly unknown[],
  options: RestoreOptions,
): SyncAccumulator {
  const steps = restoreSteps(roomsData, accountData, options);
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}

/**
 * restoreAccumulator one room at a time: the generator yields after each
 * room and returns the accumulator, so a caller can spread a large snapshot
 * over several tasks (the sync processor's restore does). A record of
 * another version throws at the first `next()`.
 */
export function* restoreSteps(
  roomsData: unknown,
  accountData: readonly unknown[],
  options: RestoreOptions,
): Generator<void, SyncAccumulator, void> {
  if (!isJsonObject(roomsData)) throw new SnapshotFormatError("Stored sync snapshot is not an object");
  if (roomsData["version"] !== ROOMS_DATA_VERSION) {
    throw new SnapshotFormatError(`Stored sync snapshot has version ${String(roomsData["version"])}`);
  }
  const ctx: ParseContext = { limits: DEFAULT_VALIDATION_LIMITS, drops: new DropLog(options.logger) };
  const acc = new SyncAccumulator(options);
  acc.setAccountData(list(accountData, (e) => storedBasicEvent(e, ctx, "stored account data event")));

  for (const raw of arrayOf(roomsData["join"])) {
    const roomId = roomIdOf(raw, ctx, "join");
    if (roomId === undefined) continue;
    const stored = raw as Record<string, unknown>;
    const room = acc.joinedRoom(roomId);
    const summary = isJsonObject(stored["summary"]) ? stored["summary"] : {};
    const heroes = summary["m.heroes"];
    if (Array.isArray(heroes)) room.summary.heroes = heroes.filter((h): h is string => typeof h === "string");
    if (isCount(summary["m.joined_member_count"]))
      room.summary.joinedMemberCount = summary["m.joined_member_count"];
    if (isCount(summary["m.invited_member_count"])) {
      room.summary.invitedMemberCount = summary["m.invited_member_count"];
    }
    const stateWhere = `stored state event in ${roomId}`;
    const state = list(arrayOf(stored["state"]), (e) => storedRoomEvent(e, ctx, stateWhere, true));
    const timeline = isJsonObject(stored["timeline"]) ? stored["timeline"] : {};
    // Repeated ids are harmless: the fold keeps the first timeline entry of each id.
    const timelineWhere = `stored timeline event in ${roomId}`;
    const events = list(arrayOf(timeline["events"]), (e) => storedRoomEvent(e, ctx, timelineWhere));
    const prevBatch = isBoundedString(timeline["prev_batch"], ctx.limits.maxStringLength)
      ? timeline["prev_batch"]
      : undefined;
    // Without its token a kept timeline cannot be paginated back from: keep state only.
    room.fold(
      {
        state,
        stateAfter: state,
        timeline:
          prevBatch !== undefined ? { events, limited: true, prevBatch } : { events: [], limited: true },
        ephemeral: [],
        accountData: list(arrayOf(stored["account_data"]), (e) =>
          storedBasicEvent(e, ctx, `stored account data event in ${roomId}`),
        ),
      },
      undefined,
    );
    for (const r of arrayOf(stored["receipts"])) {
      if (!isJsonObject(r)) continue;
      const { event_id: eventId, receipt_type: type, user_id: userId, data } = r;
      if (isNonEmpty(eventId) && isNonEmpty(type) && isNonEmpty(userId) && isJsonObject(data)) {
        room.receipts.add({ event_id: eventId, receipt_type: type, user_id: userId, data });
      }
    }
    const unread = counts(stored["unread_notifications"]);
    if (unread) room.unread = unread;
    if (Array.isArray(stored["unread_thread_notifications"])) {
      room.threadUnread = new Map();
      for (const t of stored["unread_thread_notifications"] as unknown[]) {
        const c = counts(t);
        if (c && isJsonObject(t) && isNonEmpty(t["thread_id"])) room.threadUnread.set(t["thread_id"], c);
      }
    }
    room.changed();
    yield;
  }
  for (const category of ["invite", "knock"] as const) {
    for (const raw of arrayOf(roomsData[category])) {
      const roomId = roomIdOf(raw, ctx, category);
      if (roomId === undefined) continue;
      const state = arrayOf((raw as Record<string, unknown>)["state"]);
      acc.setStrippedRoom(
        roomId,
        category,
        list(state, (e) => storedStrippedEvent(e, ctx, `stored ${category}_state event in ${roomId}`)),
      );
      yield;
    }
  }
  ctx.drops.finish();
  return acc;
}

function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? (value as unknown[]) : [];
}

function list<T>(items: readonly unknown[], parse: (raw: unknown) => T | null): T[] {
  const out: T[] = [];
  for (const raw of items) {
    const item = parse(raw);
    if (item !== null) out.push(item);
  }
  return out;
}

function isNonEmpty(value: unknown): value is string {
  return typeof value === "string" && value.length > 0;
}

function roomIdOf(raw: unknown, ctx: ParseContext, category: string): string | undefined {
  const roomId = isJsonObject(raw) ? raw["room_id"] : undefined;
  if (isBoundedString(roomId, ctx.limits.maxIdLength) && roomId.startsWith("!")) return roomId;
  ctx.drops.drop(`stored room in ${category}`, "invalid room id or record", roomId);
  return undefined;
}

function counts(raw: unknown): UnreadCounts | undefined {
  if (!isJsonObject(raw)) return undefined;
  const { highlight_count: highlight, notification_count: notification } = raw;
  return isCount(highlight) && isCount(notification)
    ? { highlightCount: highlight, notificationCount: notification }
    : undefined;
}
