/**
 * Push evaluation applied to rooms: which events notify or highlight a
 * user, the unread counts sync reports (main timeline and per thread, after
 * the user's receipts), and the /notifications list. Outcomes are cached per
 * user and event until the user's rules change, which also makes an event's
 * outcome stick at first evaluation, close to Synapse evaluating at send time.
 */
import type { ServerContext } from "../../core/context";
import type { JsonObject, StoredEvent } from "../../core/events";
import type { ReceiptStore } from "../receipts";
import type { PushOutcome, PushEvalContext } from "./evaluator";
import { evaluatePush } from "./evaluator";
import type { PushRulesStore } from "./rules-store";

export interface UnreadCountsWire {
  notification_count: number;
  highlight_count: number;
}

/** A notification as GET /notifications lists it. */
export interface NotificationWire {
  actions: PushOutcome["actions"];
  event: JsonObject;
  read: boolean;
  room_id: string;
  ts: number;
}

/** The thread an event belongs to: its m.thread root, or "main". */
export function threadOf(event: StoredEvent): string {
  const rel = event.content["m.relates_to"];
  if (typeof rel === "object" && rel !== null && !Array.isArray(rel)) {
    const r = rel as JsonObject;
    if (r["rel_type"] === "m.thread" && typeof r["event_id"] === "string") return r["event_id"];
  }
  return "main";
}

/** The client format of a stored event (what push conditions and /notifications see). */
export function clientEvent(event: StoredEvent): JsonObject {
  const out: JsonObject = {
    event_id: event.event_id,
    room_id: event.room_id,
    type: event.type,
    sender: event.sender,
    origin_server_ts: event.origin_server_ts,
    content: event.content,
    unsigned: {},
  };
  if (event.state_key !== undefined) out["state_key"] = event.state_key;
  if (event.redacts !== undefined) out["redacts"] = event.redacts;
  return out;
}

/** A power level: an integer, or in rooms before v10 a string holding one. */
export function toLevel(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isInteger(value)) return value;
  if (typeof value === "string" && /^-?[0-9]{1,15}$/.test(value.trim())) return Number(value.trim());
  return undefined;
}

/** content.notifications of power levels, with string levels of old rooms read as numbers. */
function notificationLevels(value: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  if (typeof value !== "object" || value === null || Array.isArray(value)) return out;
  for (const [key, raw] of Object.entries(value)) {
    const level = toLevel(raw);
    if (level !== undefined) out[key] = level;
  }
  return out;
}

/** A thread key no receipt uses, so readUpTo answers for the unthreaded receipt alone. */
const UNTHREADED_ONLY = "\u0000unthreaded";

export class NotificationEngine {
  private cache = new Map<string, { stream: number; outcomes: Map<string, PushOutcome> }>();

  constructor(
    private readonly ctx: ServerContext,
    private readonly rules: PushRulesStore,
    private readonly receipts: ReceiptStore,
  ) {}

  /** The push outcome of an event for a user (own events never notify). */
  outcome(userId: string, event: StoredEvent): PushOutcome {
    if (event.sender === userId || event.redactedBy) return { notify: false, highlight: false, actions: [] };
    const rulesAt = this.rules.changedAt(userId);
    let entry = this.cache.get(userId);
    if (!entry || entry.stream !== rulesAt)
      this.cache.set(userId, (entry = { stream: rulesAt, outcomes: new Map() }));
    let result = entry.outcomes.get(event.event_id);
    if (!result) {
      result = evaluatePush(this.rules.ruleset(userId), clientEvent(event), this.evalContext(userId, event));
      entry.outcomes.set(event.event_id, result);
    }
    return result;
  }

  /** What the evaluator needs about the room, read from its current state. */
  evalContext(userId: string, event: StoredEvent): PushEvalContext {
    const rooms = this.ctx.rooms;
    const member = rooms.currentState(event.room_id, "m.room.member", userId);
    const name = member?.content["displayname"];
    const pl = rooms.currentState(event.room_id, "m.room.power_levels", "")?.content;
    const notifications = pl?.["notifications"];
    const ctx: PushEvalContext = {
      userId,
      memberCount: rooms.joinedMembers(event.room_id).length,
      senderPowerLevel: this.powerLevel(event.room_id, event.sender),
      notificationLevels: notificationLevels(notifications),
    };
    if (typeof name === "string" && name.length > 0) ctx.displayName = name;
    return ctx;
  }

  /** A user's power level: creators of v12+ rooms are infinite; without power levels the creator has 100. */
  powerLevel(roomId: string, userId: string): number {
    const create = this.ctx.rooms.currentState(roomId, "m.room.create", "");
    const version = create?.content["room_version"];
    const modernCreators = typeof version === "string" && /^[0-9]+$/.test(version) && Number(version) >= 12;
    if (create && modernCreators) {
      const extra = create.content["additional_creators"];
      if (create.sender === userId || (Array.isArray(extra) && extra.includes(userId))) return Infinity;
    }
    const pl = this.ctx.rooms.currentState(roomId, "m.room.power_levels", "")?.content;
    if (!pl) return create?.sender === userId ? 100 : 0;
    const users = pl["users"];
    if (typeof users === "object" && users !== null && Object.prototype.hasOwnProperty.call(users, userId)) {
      const level = toLevel((users as JsonObject)[userId]);
      if (level !== undefined) return level;
    }
    return toLevel(pl["users_default"]) ?? 0;
  }

  /**
   * Events of a room that may notify the user, newest first: from the end of
   * the timeline back to the user's latest join (or to `floor`), not their
   * own, not redacted. Walking backwards keeps a sync of a long room cheap:
   * it stops at the unthreaded receipt, which covers every thread.
   */
  private *candidates(userId: string, roomId: string, floor = 0): Generator<StoredEvent> {
    const timeline = this.ctx.rooms.timeline(roomId);
    for (let i = timeline.length - 1; i >= 0; i--) {
      const e = timeline[i] as StoredEvent;
      if (e.stream <= floor) return;
      if (e.type === "m.room.member" && e.state_key === userId) {
        // The latest join that was not a profile change starts what counts.
        if (e.content["membership"] !== "join") return;
        if (e.prevContent?.["membership"] !== "join") return;
        continue;
      }
      if (e.sender === userId || e.redactedBy) continue;
      yield e;
    }
  }

  /** Unread counts for the main timeline and for each thread with unread notifying events. */
  unread(userId: string, roomId: string): { main: UnreadCountsWire; threads: Map<string, UnreadCountsWire> } {
    const main: UnreadCountsWire = { notification_count: 0, highlight_count: 0 };
    const threads = new Map<string, UnreadCountsWire>();
    if (this.ctx.rooms.membershipOf(roomId, userId) !== "join") return { main, threads };
    const readUpTo = new Map<string, number>();
    for (const e of this.candidates(
      userId,
      roomId,
      this.receipts.readUpTo(roomId, userId, UNTHREADED_ONLY),
    )) {
      const thread = threadOf(e);
      let upTo = readUpTo.get(thread);
      if (upTo === undefined) readUpTo.set(thread, (upTo = this.receipts.readUpTo(roomId, userId, thread)));
      if (e.stream <= upTo || !this.ctx.rooms.canSee(userId, e)) continue;
      const result = this.outcome(userId, e);
      if (!result.notify) continue;
      let counts = main;
      if (thread !== "main") {
        counts = threads.get(thread) ?? { notification_count: 0, highlight_count: 0 };
        threads.set(thread, counts);
      }
      counts.notification_count++;
      if (result.highlight) counts.highlight_count++;
    }
    return { main, threads };
  }

  /** GET /notifications: newest first, before `from` (a stream position), optionally highlights only. */
  list(
    userId: string,
    from: number | undefined,
    limit: number,
    onlyHighlight: boolean,
  ): { notifications: NotificationWire[]; next_token?: string } {
    const found: Array<{ event: StoredEvent; outcome: PushOutcome }> = [];
    for (const { roomId, membership } of this.ctx.rooms.roomsForUser(userId)) {
      if (membership !== "join") continue;
      for (const e of this.candidates(userId, roomId)) {
        if (from !== undefined && e.stream >= from) continue;
        if (!this.ctx.rooms.canSee(userId, e)) continue;
        const result = this.outcome(userId, e);
        if (!result.notify || (onlyHighlight && !result.highlight)) continue;
        found.push({ event: e, outcome: result });
      }
    }
    found.sort((a, b) => b.event.stream - a.event.stream);
    const page = found.slice(0, limit);
    const notifications = page.map(({ event, outcome }) => ({
      actions: outcome.actions,
      event: clientEvent(event),
      read: event.stream <= this.receipts.readUpTo(event.room_id, userId, threadOf(event)),
      room_id: event.room_id,
      ts: event.origin_server_ts,
    }));
    const last = page[page.length - 1];
    return found.length > limit && last
      ? { notifications, next_token: String(last.event.stream) }
      : { notifications };
  }
}
