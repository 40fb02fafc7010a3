/**
 * Typing notifications: a notice carries a 20000 ms time-out by default
 * (SPEC §9); while the user keeps typing, the notice is re-sent before the
 * server lets it expire; stop sends typing false and ends the re-sends.
 * Guests send none (SPEC §6). Timers run on the injected scheduler's sleep,
 * so the rule is tested with fake time.
 */
import { DEFAULT_TYPING_TIMEOUT_MS, sendTyping } from "../../api/receipts";
import type { HttpApi } from "../../http/types";
import { canSendEphemeral } from "../../sync/guests";
import type { Scheduler } from "../../util/scheduler";
import { realScheduler } from "../../util/scheduler";
import type { Actor, RoomLookup, RunningGuard } from "./types";
import { ALWAYS_RUNNING } from "./types";

/** How long before expiry a still-typing notice is renewed. */
export const TYPING_RENEW_MARGIN_MS = 5_000;

export interface TypingServiceOptions {
  http: HttpApi;
  actor: Actor;
  rooms?: RoomLookup;
  running?: RunningGuard;
  scheduler?: Scheduler;
  /** Defaults to 20000 ms. */
  timeoutMs?: number;
  logger?: { warn(message: string, error?: unknown): void };
}

export class TypingService {
  /** One abort controller per room whose notice is being kept alive. */
  private readonly renewals = new Map<string, AbortController>();

  constructor(private readonly options: TypingServiceOptions) {}

  private get timeoutMs(): number {
    return this.options.timeoutMs ?? DEFAULT_TYPING_TIMEOUT_MS;
  }

  /** Whether a notice is being kept alive for the room. */
  isTyping(roomId: string): boolean {
    return this.renewals.has(roomId);
  }

  /**
   * Starts (true) or stops (false) typing in a room. Starting again while
   * typing only keeps the running renewal. Resolves false when nothing was
   * sent (guests, or typing already on).
   */
  async setTyping(roomId: string, typing: boolean): Promise<boolean> {
    (this.options.running ?? ALWAYS_RUNNING).requireRunning();
    this.options.rooms?.get(roomId);
    if (!canSendEphemeral(this.options.actor)) return false;
    const { http, actor } = this.options;
    if (!typing) {
      this.cancel(roomId);
      await sendTyping(http, roomId, actor.userId, false);
      return true;
    }
    if (this.renewals.has(roomId)) return false;
    const controller = new AbortController();
    this.renewals.set(roomId, controller);
    try {
      await sendTyping(http, roomId, actor.userId, true, this.timeoutMs);
    } catch (err) {
      this.cancel(roomId);
      throw err;
    }
    void this.keepAlive(roomId, controller.signal);
    return true;
  }

  /** Ends every renewal without sending anything (the client stops). */
  dispose(): void {
    for (const roomId of [...this.renewals.keys()]) this.cancel(roomId);
  }

  private cancel(roomId: string): void {
    this.renewals.get(roomId)?.abort(new Error("Typing stopped"));
    this.renewals.delete(roomId);
  }

  private async keepAlive(roomId: string, signal: AbortSignal): Promise<void> {
    const scheduler = this.options.scheduler ?? realScheduler;
    const every = Math.max(1, this.timeoutMs - Math.min(TYPING_RENEW_MARGIN_MS, this.timeoutMs / 2));
    while (!signal.aborted) {
      try {
        await scheduler.sleep(every, signal);
      } catch {
        return;
      }
      if (signal.aborted) return;
      try {
        await sendTyping(this.options.http, roomId, this.options.actor.userId, true, this.timeoutMs);
      } catch (err) {
        // A lost renewal only shortens the notice; the next one may get through.
        this.options.logger?.warn(`Typing renewal failed in ${roomId}`, err);
      }
    }
  }
}
