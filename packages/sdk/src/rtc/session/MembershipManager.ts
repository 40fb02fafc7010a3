/**
 * Keeps our membership of one session on the server. On join it first
 * schedules a delayed leave (MSC4140: the empty membership, sent by the
 * server after DELAYED_LEAVE_MS unless restarted), then sends the
 * membership, then restarts the delayed leave every RESTART_EVERY_MS: a
 * crashed or closed client stops restarting and leaves by itself. Restarts
 * keep their cadence: one the network or a starved page holds up does not
 * hold up the next (up to MAX_RESTARTS_IN_FLIGHT at once). The membership
 * is re-sent before it expires.
 *
 * On leave it asks the server to send the delayed leave now; if that fails
 * it cancels it and writes the leave itself. Without delayed events (not in
 * /versions, or a server that answered the delayed send with an event at
 * once) it says 'Server does not support the delayed events API' once and
 * relies on membership expiry.
 *
 * If our membership disappears while joined, the delayed leave is checked:
 * gone means it fired (we were offline too long), so we join again; still
 * there means another device of ours wrote the leave, and we are evicted.
 *
 * I/O is injected (MembershipIo) and all time goes through the Scheduler.
 */
import type { Scheduler } from "../../util/scheduler";
import { ObservableValue } from "../../util/observable";
import type { ReadonlyObservable } from "../../util/observable";
import { DELAYED_EVENTS_UNSUPPORTED } from "../constants";
import { isNotFound, withRetries } from "./retry";
import { MatrixError } from "../../http/errors";

/**
 * How long the server waits, after our last restart, before it sends our
 * leave. The delay is the margin a live but starved client has: each time
 * it runs out, the others see us leave and come back, and Element Call
 * (like us) rotates its media key for the leave and again for the return
 * (once older than 10 s), so frames go undecryptable for as long as the
 * new keys take to arrive. With 8 s, then 18 s (Element Call's deployed
 * pair), a Lattice member beside Element Call on a loaded machine left
 * and came back about every 15 s, and Element Call rotated with it. 30 s
 * is what Element Call hosted by Lattice uses (0033): a crashed client is
 * gone at most 30 s after its last restart.
 */
export const DELAYED_LEAVE_MS = 30_000;
/** How often we restart the delayed leave: several times within one delay, so one late restart costs nothing. */
export const RESTART_EVERY_MS = 4_000;
/**
 * Restarts sent while earlier ones are unanswered. A restart held up (a
 * starved page took 7.7 s to see one answered, at times 20 s passed
 * between two) no longer delays the next: the server's timer restarts
 * when any of them arrives.
 */
export const MAX_RESTARTS_IN_FLIGHT = 4;
export const MEMBERSHIP_EXPIRY_MS = 4 * 60 * 60 * 1000;
/** Re-send this long before expiry, so peers never see us expired. */
export const EXPIRY_HEADROOM_MS = 5000;

/** The requests the manager makes; the facade binds them to a room and a form. */
export interface MembershipIo {
  /** Sends `content` as our membership now. */
  send(content: Record<string, unknown>): Promise<void>;
  /** Schedules `content` after `delayMs`; the delay id, or undefined when the server sent it at once. */
  sendDelayed(content: Record<string, unknown>, delayMs: number): Promise<string | undefined>;
  updateDelayed(delayId: string, action: "restart" | "send" | "cancel"): Promise<void>;
}

export type MembershipStatus = "disconnected" | "joining" | "connected" | "leaving" | "evicted" | "error";

export interface MembershipManagerOptions {
  io: MembershipIo;
  scheduler: Scheduler;
  /** Whether /versions advertises MSC4140 (ServerFeatures.delayedEvents). */
  delayedEvents: boolean;
  /** Our membership content for a created_ts and an expiry relative to it. */
  joinContent: (createdTs: number, expiresMs: number) => Record<string, unknown>;
  /** The leave content ({} for the state form). */
  leaveContent: () => Record<string, unknown>;
  /** Called with SPEC messages and failures. */
  warn?: (message: string, error?: unknown) => void;
  /** The delayed leave's delay; DELAYED_LEAVE_MS unless given (tests of a crash pass a short one). */
  delayedLeaveMs?: number;
  /** How often to restart the delayed leave; RESTART_EVERY_MS, or a quarter of a shorter delay. */
  restartEveryMs?: number;
  membershipExpiryMs?: number;
}

export class MembershipManager {
  private readonly statusValue = new ObservableValue<MembershipStatus>("disconnected");
  private run: AbortController | undefined;
  private delayId: string | undefined;
  private delayed: boolean;
  private warned = false;
  /** Whether sync has shown our membership since we last sent it. */
  private seenOwn = false;
  private createdTs = 0;
  private expiresMs: number;
  private restartsInFlight = 0;

  constructor(private readonly options: MembershipManagerOptions) {
    this.delayed = options.delayedEvents;
    this.expiresMs = options.membershipExpiryMs ?? MEMBERSHIP_EXPIRY_MS;
  }

  get status(): ReadonlyObservable<MembershipStatus> {
    return this.statusValue;
  }

  /** Whether delayed leave events are in use (false after a fallback). */
  get usesDelayedEvents(): boolean {
    return this.delayed;
  }

  /** The delayed leave's id on the server, if any. */
  get delayedLeaveId(): string | undefined {
    return this.delayId;
  }

  /** Starts keeping our membership; resolves once it is sent (or failed). */
  async join(): Promise<void> {
    if (this.run) return;
    const run = new AbortController();
    this.run = run;
    this.statusValue.set("joining");
    this.createdTs = this.options.scheduler.now();
    this.expiresMs = this.options.membershipExpiryMs ?? MEMBERSHIP_EXPIRY_MS;
    try {
      await this.establish(run.signal);
      if (run.signal.aborted) return;
      this.statusValue.set("connected");
      void this.restartLoop(run.signal);
      void this.refreshLoop(run.signal);
    } catch (error) {
      if (run.signal.aborted) return;
      this.fail(run, error);
    }
  }

  /** Delayed leave first, so a crash between the two requests still ends in a leave. */
  private async establish(signal: AbortSignal): Promise<void> {
    const { io, scheduler } = this.options;
    if (!this.delayed) this.warnUnsupported();
    if (this.delayed) {
      const leave = this.options.leaveContent();
      const delayMs = this.options.delayedLeaveMs ?? DELAYED_LEAVE_MS;
      const id = await withRetries(scheduler, signal, () => io.sendDelayed(leave, delayMs));
      if (id === undefined) {
        // An old server ignored the delay parameter and sent the leave at once.
        this.delayed = false;
        this.warnUnsupported();
      } else this.delayId = id;
    }
    this.seenOwn = false;
    await withRetries(scheduler, signal, () =>
      io.send(this.options.joinContent(this.createdTs, this.expiresMs)),
    );
  }

  private warnUnsupported(): void {
    if (this.warned) return;
    this.warned = true;
    this.options.warn?.(DELAYED_EVENTS_UNSUPPORTED);
  }

  private fail(run: AbortController, error: unknown): void {
    run.abort();
    if (this.run === run) this.run = undefined;
    this.statusValue.set("error");
    this.options.warn?.("Could not keep the call membership", error);
  }

  /**
   * Restarts the delayed leave every `every` ms on the clock, not `every` ms
   * after the previous restart was answered: a slow answer must not eat the
   * delay's margin. A failed restart is not retried: the next tick is the
   * retry.
   */
  private async restartLoop(signal: AbortSignal): Promise<void> {
    const { scheduler } = this.options;
    // Four restarts within the delay at least, so one late restart still costs nothing.
    const delay = this.options.delayedLeaveMs ?? DELAYED_LEAVE_MS;
    const every = this.options.restartEveryMs ?? Math.min(RESTART_EVERY_MS, delay / 4);
    while (this.delayed && !signal.aborted) {
      try {
        await scheduler.sleep(every, signal);
      } catch {
        return;
      }
      const id = this.delayId;
      // Undefined while joining again: that join schedules a new delayed leave.
      if (id === undefined || this.restartsInFlight >= MAX_RESTARTS_IN_FLIGHT) continue;
      void this.restart(id, signal);
    }
  }

  private async restart(id: string, signal: AbortSignal): Promise<void> {
    this.restartsInFlight++;
    try {
      await this.options.io.updateDelayed(id, "restart");
    } catch (error) {
      if (signal.aborted) return;
      // The delayed leave fired (we were unreachable): join again, once for all restarts of that id.
      if (isNotFound(error)) {
        if (this.delayId === id) await this.rejoin(signal);
        return;
      }
      this.options.warn?.("Could not restart the delayed leave", error);
    } finally {
      this.restartsInFlight--;
    }
  }

  private async refreshLoop(signal: AbortSignal): Promise<void> {
    const { io, scheduler } = this.options;
    while (!signal.aborted) {
      const due = this.createdTs + this.expiresMs - EXPIRY_HEADROOM_MS;
      try {
        await scheduler.sleep(Math.max(0, due - scheduler.now()), signal);
        this.expiresMs += this.options.membershipExpiryMs ?? MEMBERSHIP_EXPIRY_MS;
        await withRetries(scheduler, signal, () =>
          io.send(this.options.joinContent(this.createdTs, this.expiresMs)),
        );
      } catch (error) {
        if (signal.aborted) return;
        this.options.warn?.("Could not refresh the call membership", error);
      }
    }
  }

  private async rejoin(signal: AbortSignal): Promise<void> {
    this.delayId = undefined;
    try {
      await this.establish(signal);
    } catch (error) {
      if (!signal.aborted && this.run) this.fail(this.run, error);
    }
  }

  /**
   * The session tells us whether sync shows our membership. Missing after
   * it was seen, while connected: our delayed leave fired, or another
   * device of ours evicted us.
   */
  async ownMembershipChanged(present: boolean): Promise<void> {
    const run = this.run;
    if (run === undefined || this.statusValue.getSnapshot() !== "connected") return;
    if (present) {
      this.seenOwn = true;
      return;
    }
    if (!this.seenOwn) return;
    this.seenOwn = false;
    const id = this.delayId;
    if (this.delayed && id !== undefined) {
      try {
        await this.options.io.updateDelayed(id, "restart");
      } catch (error) {
        if (isNotFound(error)) {
          // A restart that found it gone may be joining again already.
          if (this.delayId === id) await this.rejoin(run.signal);
          return;
        }
      }
    }
    // Our delayed leave is still pending (or there is none): someone else wrote the leave.
    this.stop(run);
    if (id !== undefined) void this.options.io.updateDelayed(id, "cancel").catch(() => undefined);
    this.statusValue.set("evicted");
  }

  private stop(run: AbortController): void {
    run.abort();
    if (this.run === run) this.run = undefined;
  }

  /**
   * Leaves: the delayed leave is sent now, or cancelled and the leave
   * written. Resolves true once the leave is on the server.
   */
  async leave(): Promise<boolean> {
    const run = this.run;
    if (run === undefined) return false;
    this.stop(run);
    this.statusValue.set("leaving");
    const { io, scheduler } = this.options;
    const signal = new AbortController().signal;
    const id = this.delayId;
    this.delayId = undefined;
    try {
      if (id !== undefined) {
        try {
          await withRetries(scheduler, signal, () => io.updateDelayed(id, "send"), 2);
          this.statusValue.set("disconnected");
          return true;
        } catch (error) {
          // The server answered (gone, refused): write the leave ourselves.
          if (!(error instanceof MatrixError)) throw error;
          await io.updateDelayed(id, "cancel").catch(() => undefined);
        }
      }
      await withRetries(scheduler, signal, () => io.send(this.options.leaveContent()), 2);
      this.statusValue.set("disconnected");
      return true;
    } catch (error) {
      this.options.warn?.("Could not send the call leave", error);
      this.statusValue.set("disconnected");
      return false;
    }
  }

  /**
   * The page is going away: no awaiting, no retries. The delayed leave is
   * sent now (or the leave written), fire and forget; if even that is
   * lost, the server's delayed leave or expiry still ends the membership.
   */
  unload(): void {
    const run = this.run;
    if (run === undefined) return;
    this.stop(run);
    const id = this.delayId;
    this.delayId = undefined;
    const { io } = this.options;
    if (id !== undefined) void io.updateDelayed(id, "send").catch(() => undefined);
    else void io.send(this.options.leaveContent()).catch(() => undefined);
    this.statusValue.set("disconnected");
  }
}
