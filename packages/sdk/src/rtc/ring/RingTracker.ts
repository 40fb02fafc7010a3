/**
 * The rings of a room and how each ends: answered, declined, cancelled, or
 * its lifetime passed (CALL_NOTIFICATION_LIFETIME_MS by default). A ring
 * already past its lifetime when it arrives never starts.
 */
import type { Scheduler } from "../../util/scheduler";
import { ObservableValue } from "../../util/observable";
import type { ReadonlyObservable } from "../../util/observable";
import type { Ring } from "./notification";

export type RingState = "ringing" | "answered" | "declined" | "cancelled" | "expired";

export interface TrackedRing {
  readonly ring: Ring;
  readonly state: RingState;
}

export class RingTracker {
  private readonly ringsValue = new ObservableValue<ReadonlyMap<string, TrackedRing>>(new Map());
  private readonly timers = new Map<string, AbortController>();

  constructor(private readonly scheduler: Scheduler) {}

  /** Every ring seen, by notification event id. */
  get rings(): ReadonlyObservable<ReadonlyMap<string, TrackedRing>> {
    return this.ringsValue;
  }

  /** The rings still ringing. */
  ringing(): TrackedRing[] {
    return [...this.ringsValue.getSnapshot().values()].filter((r) => r.state === "ringing");
  }

  /** Starts tracking a ring; false when known already or expired on arrival. */
  receive(ring: Ring): boolean {
    if (this.ringsValue.getSnapshot().has(ring.eventId)) return false;
    const left = ring.expiresAt - this.scheduler.now();
    if (left <= 0) return false;
    this.put(ring.eventId, { ring, state: "ringing" });
    const controller = new AbortController();
    this.timers.set(ring.eventId, controller);
    this.scheduler.sleep(left, controller.signal).then(
      () => this.end(ring.eventId, "expired"),
      () => undefined,
    );
    return true;
  }

  /** Ends a ringing ring; later ends of the same ring change nothing. */
  end(eventId: string, state: Exclude<RingState, "ringing">): void {
    const tracked = this.ringsValue.getSnapshot().get(eventId);
    if (tracked === undefined || tracked.state !== "ringing") return;
    this.timers.get(eventId)?.abort();
    this.timers.delete(eventId);
    this.put(eventId, { ring: tracked.ring, state });
  }

  /** Ends every ringing ring from `sender` (they left the call: cancelled). */
  endFrom(sender: string, state: Exclude<RingState, "ringing">): void {
    for (const r of this.ringing()) if (r.ring.sender === sender) this.end(r.ring.eventId, state);
  }

  private put(eventId: string, tracked: TrackedRing): void {
    const next = new Map(this.ringsValue.getSnapshot());
    next.set(eventId, tracked);
    this.ringsValue.set(next);
  }

  dispose(): void {
    for (const c of this.timers.values()) c.abort();
    this.timers.clear();
  }
}
