/**
 * MSC4140 delayed events: an event scheduled to be sent after a delay
 * unless cancelled or restarted first, or when its parent delayed event is
 * sent. Expiry sends through the rooms domain (RoomStore.sendAsUser), on
 * the server clock.
 */
import type { ServerContext } from "../core/context";
import type { JsonObject } from "../core/events";
import { MatrixHttpError, errors } from "../http/errors";
import type { DelayedEventWire } from "./wire-types";

/** The unstable prefix of the delayed-events endpoints. */
export const MSC4140_PREFIX = "/_matrix/client/unstable/org.matrix.msc4140";
/** The unstable feature flag advertised in /versions. */
export const MSC4140_FEATURE = "org.matrix.msc4140";
/** Query parameters of send and state PUTs that ask for a delay. */
export const MSC4140_DELAY_PARAM = "org.matrix.msc4140.delay";
export const MSC4140_PARENT_PARAM = "org.matrix.msc4140.parent_delay_id";
/** The longest delay accepted (Synapse's default max_event_delay_duration is unset; one day keeps tests sane). */
export const MAX_DELAY_MS = 24 * 60 * 60 * 1000;

export type DelayedAction = "cancel" | "restart" | "send";

/**
 * The delay a send or state PUT asks for through its query, or undefined
 * when it asks for none. A delay that is not a decimal integer is 400
 * M_INVALID_PARAM.
 */
export function parseDelayQuery(
  query: URLSearchParams,
): { delayMs?: number; parentDelayId?: string } | undefined {
  const rawDelay = query.get(MSC4140_DELAY_PARAM);
  const parent = query.get(MSC4140_PARENT_PARAM);
  if (rawDelay === null && parent === null) return undefined;
  const out: { delayMs?: number; parentDelayId?: string } = {};
  if (rawDelay !== null) {
    if (!/^[0-9]{1,15}$/.test(rawDelay))
      throw errors.invalidParam(`'${MSC4140_DELAY_PARAM}' must be an integer`);
    out.delayMs = Number(rawDelay);
  }
  if (parent !== null) out.parentDelayId = parent;
  return out;
}

interface Delayed {
  userId: string;
  roomId: string;
  type: string;
  content: JsonObject;
  stateKey?: string;
  delay: number;
  runningSince: number;
  parentDelayId?: string;
  /** Timer handle while the timer runs (children of a pending parent have none). */
  timer?: unknown;
}

export class DelayedEventStore {
  private events = new Map<string, Delayed>();

  constructor(private readonly ctx: ServerContext) {}

  /**
   * Schedules an event. `delayMs` starts a timer now; with `parentDelayId`
   * the event waits for its parent to be sent and then starts its own delay
   * (0 when none). Throws MatrixHttpError on bad input.
   */
  schedule(
    userId: string,
    roomId: string,
    type: string,
    content: JsonObject,
    stateKey: string | undefined,
    delayMs: number | undefined,
    parentDelayId: string | undefined,
  ): { delay_id: string } {
    if (delayMs === undefined && parentDelayId === undefined) throw errors.missingParam(MSC4140_DELAY_PARAM);
    if (delayMs !== undefined && (!Number.isSafeInteger(delayMs) || delayMs < 0))
      throw errors.invalidParam("The delay must be a non-negative integer");
    if (delayMs !== undefined && delayMs > MAX_DELAY_MS)
      throw new MatrixHttpError(400, "M_INVALID_PARAM", `The delay cannot exceed ${MAX_DELAY_MS} ms`, {
        "org.matrix.msc4140.errcode": "M_MAX_DELAY_EXCEEDED",
        "org.matrix.msc4140.max_delay": MAX_DELAY_MS,
      });
    if (parentDelayId !== undefined) {
      const parent = this.events.get(parentDelayId);
      if (!parent || parent.userId !== userId) throw errors.notFound("Unknown parent delayed event");
    }
    if (this.ctx.rooms.membershipOf(roomId, userId) !== "join") throw errors.forbidden("User not in room");
    const delayId = `syd_${this.ctx.ids.randomString(20)}`;
    const entry: Delayed = {
      userId,
      roomId,
      type,
      content: structuredClone(content),
      delay: delayMs ?? 0,
      runningSince: this.ctx.clock.now(),
    };
    if (stateKey !== undefined) entry.stateKey = stateKey;
    if (parentDelayId !== undefined) entry.parentDelayId = parentDelayId;
    else this.startTimer(delayId, entry);
    this.events.set(delayId, entry);
    return { delay_id: delayId };
  }

  private startTimer(delayId: string, entry: Delayed): void {
    if (entry.timer !== undefined) this.ctx.clock.clearTimeout(entry.timer);
    entry.runningSince = this.ctx.clock.now();
    entry.timer = this.ctx.clock.setTimeout(() => this.sendNow(delayId), entry.delay);
  }

  /** The user's scheduled delayed events. */
  list(userId: string): DelayedEventWire[] {
    const out: DelayedEventWire[] = [];
    for (const [delayId, e] of this.events) {
      if (e.userId !== userId) continue;
      const wire: DelayedEventWire = {
        delay_id: delayId,
        room_id: e.roomId,
        type: e.type,
        delay: e.delay,
        running_since: e.runningSince,
        content: structuredClone(e.content),
      };
      if (e.stateKey !== undefined) wire.state_key = e.stateKey;
      if (e.parentDelayId !== undefined) wire.parent_delay_id = e.parentDelayId;
      out.push(wire);
    }
    return out;
  }

  /**
   * Cancels, restarts or sends a delayed event. `userId` undefined skips the
   * owner check (the newer MSC4140 paths treat the delay id as the secret).
   */
  update(delayId: string, action: DelayedAction, userId: string | undefined): void {
    const entry = this.events.get(delayId);
    if (!entry || (userId !== undefined && entry.userId !== userId))
      throw errors.notFound("Delayed event not found");
    if (action === "cancel") this.cancel(delayId);
    else if (action === "restart") {
      if (entry.parentDelayId === undefined) this.startTimer(delayId, entry);
    } else this.sendNow(delayId);
  }

  private cancel(delayId: string): void {
    const entry = this.events.get(delayId);
    if (!entry) return;
    if (entry.timer !== undefined) this.ctx.clock.clearTimeout(entry.timer);
    this.events.delete(delayId);
    for (const [childId, child] of [...this.events]) {
      if (child.parentDelayId === delayId) this.cancel(childId);
    }
  }

  /** Sends the event as its user; a refusal (e.g. the user left) drops it. Children start their delay. */
  private sendNow(delayId: string): void {
    const entry = this.events.get(delayId);
    if (!entry) return;
    if (entry.timer !== undefined) this.ctx.clock.clearTimeout(entry.timer);
    this.events.delete(delayId);
    try {
      this.ctx.rooms.sendAsUser(entry.userId, entry.roomId, entry.type, entry.content, entry.stateKey);
    } catch (err) {
      if (!(err instanceof MatrixHttpError)) console.error("[testserver] delayed event failed:", err);
    }
    for (const [childId, child] of this.events) {
      if (child.parentDelayId !== delayId) continue;
      delete child.parentDelayId;
      this.startTimer(childId, child);
    }
  }
}
