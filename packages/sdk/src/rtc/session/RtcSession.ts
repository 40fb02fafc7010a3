/**
 * One MatrixRTC session: a room's call of one application. It holds the
 * memberships that count (membership/filter.ts) as an observable, and our
 * own join state, which its MembershipManager keeps on the server.
 * Joining while joined is ignored; leaving while not joined returns false;
 * a leave that takes longer than CALL_LEAVE_TIMEOUT_MS resolves false
 * (the delayed leave or expiry finishes it).
 */
import type { Scheduler } from "../../util/scheduler";
import { ObservableValue } from "../../util/observable";
import type { ReadonlyObservable } from "../../util/observable";
import { CALL_LEAVE_TIMEOUT_MS } from "../constants";
import type { CallMembership, SessionDescription } from "../membership/types";
import type { MembershipManager } from "./MembershipManager";

export interface RtcSessionOptions {
  roomId: string;
  description: SessionDescription;
  userId: string;
  deviceId: string;
  scheduler: Scheduler;
}

export class RtcSession {
  readonly roomId: string;
  readonly description: SessionDescription;
  private readonly membershipsValue = new ObservableValue<readonly CallMembership[]>([]);
  private readonly joinedValue = new ObservableValue(false);
  private manager: MembershipManager | undefined;
  private unwatch: (() => void) | undefined;

  constructor(private readonly options: RtcSessionOptions) {
    this.roomId = options.roomId;
    this.description = options.description;
  }

  /** The memberships that count, oldest first. */
  get memberships(): ReadonlyObservable<readonly CallMembership[]> {
    return this.membershipsValue;
  }

  /** Whether this device is in the session. */
  get joined(): ReadonlyObservable<boolean> {
    return this.joinedValue;
  }

  /** The membership manager of the current join, if any. */
  get membershipManager(): MembershipManager | undefined {
    return this.manager;
  }

  /** Our own membership as the room shows it. */
  ownMembership(): CallMembership | undefined {
    const { userId, deviceId } = this.options;
    return this.membershipsValue.getSnapshot().find((m) => m.sender === userId && m.deviceId === deviceId);
  }

  /** Applies the session's valid memberships (SessionManager computes them). */
  update(memberships: readonly CallMembership[]): void {
    const before = this.membershipsValue.getSnapshot();
    const same =
      before.length === memberships.length &&
      before.every(
        (m, i) => m.eventId === memberships[i]?.eventId && m.expiresAt === memberships[i]?.expiresAt,
      );
    if (!same) this.membershipsValue.set(memberships);
    void this.manager?.ownMembershipChanged(this.ownMembership() !== undefined);
  }

  /** Joins with `manager`; ignored while joined. */
  async join(manager: MembershipManager): Promise<void> {
    if (this.joinedValue.getSnapshot()) return;
    this.manager = manager;
    this.joinedValue.set(true);
    this.unwatch = manager.status.subscribe((status) => {
      if (status === "evicted" || status === "error" || status === "disconnected") this.detach(manager);
    });
    await manager.join();
  }

  private detach(manager: MembershipManager): void {
    if (this.manager !== manager) return;
    this.unwatch?.();
    this.unwatch = undefined;
    this.manager = undefined;
    this.joinedValue.set(false);
  }

  /** Leaves; false when not joined or when the leave outlasted `timeoutMs`. */
  async leave(timeoutMs = CALL_LEAVE_TIMEOUT_MS): Promise<boolean> {
    const manager = this.manager;
    if (!this.joinedValue.getSnapshot() || manager === undefined) return false;
    this.detach(manager);
    const timer = new AbortController();
    const timedOut = this.options.scheduler.sleep(timeoutMs, timer.signal).then(
      () => false,
      () => false,
    );
    try {
      return await Promise.race([manager.leave(), timedOut]);
    } finally {
      timer.abort();
    }
  }

  /** The page is unloading: best-effort leave, nothing awaited. */
  unload(): void {
    const manager = this.manager;
    if (manager === undefined) return;
    this.detach(manager);
    manager.unload();
  }
}
