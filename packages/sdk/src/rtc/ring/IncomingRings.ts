/**
 * The rings addressed to us, as the callee sees them (the RingTracker keeps
 * each ring's own fate, as the caller sees it). A ring rings here when it is
 * of type "ring", comes from someone else and mentions us (or the whole
 * room), until the first of:
 *   - its lifetime passes (a ring already past it never starts);
 *   - we join the room's call, from this device or another one;
 *   - we decline it, here or from another device (our decline event);
 *   - the ringer is no longer in the room's call (they hung up, or the
 *     session ended).
 * Someone else answering or declining does not stop it: the ring was for
 * each of the mentioned users. Callers send each ring twice (the RTC
 * notification and the deprecated call.notify): one rings, the RTC form
 * when both came.
 */
import type { Scheduler } from "../../util/scheduler";
import { ObservableValue } from "../../util/observable";
import type { ReadonlyObservable } from "../../util/observable";
import type { Ring } from "./notification";

/** A ring for us, with the room it rings in. */
export interface IncomingRing {
  readonly roomId: string;
  readonly ring: Ring;
}

export class IncomingRings {
  private readonly value = new ObservableValue<readonly IncomingRing[]>([]);
  private readonly timers = new Map<string, AbortController>();
  /** Rings that stopped, so a second copy (sync, gappy timeline) never starts again. */
  private readonly stopped = new Set<string>();
  /** The last ring of each room and sender whose other form has not come yet. */
  private readonly unpaired = new Map<string, Ring>();

  constructor(
    private readonly userId: string,
    private readonly scheduler: Scheduler,
  ) {}

  /** The rings ringing here, oldest first. */
  get ringing(): ReadonlyObservable<readonly IncomingRing[]> {
    return this.value;
  }

  /** A ring event arrived in `roomId`; false when it does not ring here. */
  receive(roomId: string, ring: Ring): boolean {
    if (ring.type !== "ring" || ring.sender === this.userId) return false;
    if (!ring.room && !ring.userIds.includes(this.userId)) return false;
    if (this.stopped.has(ring.eventId) || this.timers.has(ring.eventId)) return false;
    const left = ring.expiresAt - this.scheduler.now();
    if (left <= 0) return false;
    if (!this.pair(roomId, ring)) return false;
    const controller = new AbortController();
    this.timers.set(ring.eventId, controller);
    this.scheduler.sleep(left, controller.signal).then(
      () => this.stop(ring.eventId),
      () => undefined,
    );
    this.value.set([...this.value.getSnapshot(), { roomId, ring }]);
    return true;
  }

  /**
   * Pairs the two forms of one ring (same room and sender, the other form,
   * within its lifetime): the second to arrive rings only if it is the RTC
   * form and its twin still rings (it takes the twin's place). A twin that
   * already stopped (declined before the other form arrived) stops both.
   */
  private pair(roomId: string, ring: Ring): boolean {
    const key = JSON.stringify([roomId, ring.sender]);
    const twin = this.unpaired.get(key);
    if (twin === undefined || twin.deprecated === ring.deprecated || twin.expiresAt <= this.scheduler.now()) {
      this.unpaired.set(key, ring);
      return true;
    }
    this.unpaired.delete(key);
    if (ring.deprecated || !this.timers.has(twin.eventId)) {
      this.stopped.add(ring.eventId);
      return false;
    }
    this.stop(twin.eventId);
    return true;
  }

  /** Someone declined a ring: it stops here only when that was us (on any device). */
  declined(notificationEventId: string, sender: string): void {
    if (sender === this.userId) this.stop(notificationEventId);
  }

  /** The users in the room's call now: our own presence answers, the ringer's absence cancels. */
  membersChanged(roomId: string, members: ReadonlySet<string>): void {
    for (const { roomId: room, ring } of this.value.getSnapshot())
      if (room === roomId && (members.has(this.userId) || !members.has(ring.sender))) this.stop(ring.eventId);
  }

  /** Stops a ring here (declined or joined on this device). */
  stop(eventId: string): void {
    this.stopped.add(eventId);
    const timer = this.timers.get(eventId);
    if (timer === undefined) return;
    timer.abort();
    this.timers.delete(eventId);
    this.value.set(this.value.getSnapshot().filter((r) => r.ring.eventId !== eventId));
  }

  dispose(): void {
    for (const c of this.timers.values()) c.abort();
    this.timers.clear();
    this.unpaired.clear();
  }
}
