/**
 * The sync loop: an explicit state machine over GET /sync. It knows nothing
 * of rooms: each response is handed, typed, to a batch handler (the
 * processing pipeline), and the token advances only once the handler has
 * finished, so a failed batch is fetched again and no event is lost.
 *
 * States (SPEC §4 Sync):
 *   null         not started yet
 *   prepared     the first sync of this run was processed
 *   syncing      later syncs are being processed
 *   reconnecting fewer than FAILURE_THRESHOLD consecutive failures
 *   error        FAILURE_THRESHOLD failures, a keep-alive failure, or an unknown token
 *   catchup      the connection returned after error; the next sync has timeout 0
 *   stopped      stop() was called
 *
 * Each failure is reported by kind (`failure`, SyncFailureKind). Two kinds
 * stop the loop in error: the server no longer knows the token, and a
 * protocol error (a next_batch that would not survive a round trip to the
 * server, validate/tokens.ts), which a retry would only repeat.
 *
 * After any other failure the loop waits for a keep-alive: GET /versions with a 15 s
 * time-out after a random 2-7 s delay; 400 or 404 count as reachable (after
 * 2 s); any other error sets error and retries after 5-10 s. The /sync
 * timeout is 0 while catching up, reconnecting or in error; the local
 * request time-out is the poll timeout plus a margin.
 *
 * Failures are told apart (errors.ts classifySyncFailure) and the last one
 * is published as `failure`: a network failure or 5xx goes through the
 * keep-alive as above; a rate limit waits the server's retry_after_ms; a
 * refusal (a 4xx other than 429 / M_LIMIT_EXCEEDED and the unknown token)
 * means the server answered and said no, so no keep-alive can help: it is
 * retried after REFUSED_RETRY_BASE_MS, then twice that, and at
 * FAILURE_THRESHOLD the loop stops in state error with the refusal marked
 * permanent, until start() is called again (the UI's "try again").
 */
import type { Logger } from "../util/logger";
import type { SyncResponse } from "../api/types/sync";
import { MatrixError } from "../http/errors";
import { backoffDelay } from "../util/backoff";
import type { BackoffPolicy } from "../util/backoff";
import { ObservableValue } from "../util/observable";
import type { ReadonlyObservable } from "../util/observable";
import { randomBetween, realScheduler } from "../util/scheduler";
import type { Scheduler } from "../util/scheduler";
import { SyncProtocolError } from "./validate/parseSync";
import { isEchoableToken } from "./validate/tokens";
import { classifySyncFailure, isConnectionFailure } from "./errors";
import type { SyncFailure } from "./errors";

export type { SyncFailure, SyncFailureKind } from "./errors";

export type SyncState = "prepared" | "syncing" | "reconnecting" | "error" | "catchup" | "stopped";

/** SPEC §9 and §8 constants. */
export const SYNC_CONSTANTS = {
  FAILURE_THRESHOLD: 3,
  DEFAULT_POLL_TIMEOUT_MS: 30_000,
  REQUEST_MARGIN_MS: 80_000,
  KEEPALIVE_DELAY_MIN_MS: 2_000,
  KEEPALIVE_DELAY_MAX_MS: 7_000,
  KEEPALIVE_TIMEOUT_MS: 15_000,
  KEEPALIVE_REACHABLE_DELAY_MS: 2_000,
  KEEPALIVE_RETRY_MIN_MS: 5_000,
  KEEPALIVE_RETRY_MAX_MS: 10_000,
  /** Our choice: the first retry of a refused request; doubled for each further one. */
  REFUSED_RETRY_BASE_MS: 2_000,
} as const;

/**
 * Failures that are not a lost connection (a refusal, an unparsable answer, a
 * failed store write) back off from REFUSED_RETRY_BASE_MS, doubling, without
 * jitter, up to a minute (local failures keep retrying past the threshold).
 */
const REFUSED_BACKOFF: BackoffPolicy = {
  baseDelayMs: SYNC_CONSTANTS.REFUSED_RETRY_BASE_MS,
  maxDelayMs: 60_000,
  jitter: "none",
};

export const UNKNOWN_TOKEN_MESSAGE = "Token no longer valid - assuming logout";

/** The longest next_batch the loop keeps (the validation's string bound). */
const MAX_TOKEN_LENGTH = 65_536;

export interface SyncRequest {
  since?: string;
  timeout: number;
  requestTimeoutMs: number;
  signal: AbortSignal;
}

/** The network side of the loop: one sync request and one keep-alive probe. */
export interface SyncTransport {
  sync(request: SyncRequest): Promise<SyncResponse>;
  /** GET /_matrix/client/versions; rejects with the HTTP error. */
  probe(timeoutMs: number, signal: AbortSignal): Promise<void>;
}

export interface SyncBatchMeta {
  /** The first sync of this run (no since, or the first after start). */
  first: boolean;
  /** This response answered a sync with timeout 0 after a failure. */
  catchingUp: boolean;
  /** The token this response continues from. */
  since: string | undefined;
}

/** Processes one sync response (persist, then emit). Throwing makes the loop fetch the batch again. */
export type SyncBatchHandler = (response: SyncResponse, meta: SyncBatchMeta) => Promise<void>;

export interface SyncLoopOptions {
  transport: SyncTransport;
  handler: SyncBatchHandler;
  /** The token to continue from (from the store), if any. */
  since?: string;
  pollTimeoutMs?: number;
  requestMarginMs?: number;
  scheduler?: Scheduler;
  logger?: Logger;
  /** Called when the server says the token is unknown; sync has stopped. */
  onUnknownToken?: (softLogout: boolean, error: MatrixError) => void;
  /** Called when the loop gave up on a refused request (state error); start() tries again. */
  onRefused?: (failure: SyncFailure) => void;
}

export class SyncLoop {
  private readonly stateValue = new ObservableValue<SyncState | null>(null);
  private readonly lastSyncValue = new ObservableValue<number | null>(null);
  private readonly failureValue = new ObservableValue<SyncFailure | null>(null);
  /** The loop ended itself on a refusal: stop() still reports "stopped". */
  private halted = false;
  private readonly scheduler: Scheduler;
  private readonly logger: Logger;
  private since: string | undefined;
  private failures = 0;
  private running = false;
  private abort = new AbortController();
  /** Aborted to cut a keep-alive wait short (the browser came back online or visible). */
  private wake = new AbortController();
  private processedFirst = false;
  private loopDone: Promise<void> = Promise.resolve();

  constructor(private readonly options: SyncLoopOptions) {
    this.scheduler = options.scheduler ?? realScheduler;
    this.logger = options.logger ?? console;
    this.since = options.since;
  }

  /** The current state; null before the first sync answers. */
  get state(): ReadonlyObservable<SyncState | null> {
    return this.stateValue;
  }

  /** When the last sync succeeded (ms since epoch), so the UI can say it is stale. */
  get lastSyncAt(): ReadonlyObservable<number | null> {
    return this.lastSyncValue;
  }

  /** The last failure, until a sync succeeds (null then). */
  get failure(): ReadonlyObservable<SyncFailure | null> {
    return this.failureValue;
  }

  /** The token the next sync continues from. */
  get nextSince(): string | undefined {
    return this.since;
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** Starts the loop; resolves at once (the loop runs in the background). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.halted = false;
    this.failures = 0;
    this.abort = new AbortController();
    this.processedFirst = false;
    this.loopDone = this.run();
  }

  /** Stops the loop and aborts any request in flight; resolves when the loop has ended. */
  async stop(): Promise<void> {
    if (!this.running) {
      if (this.halted) this.stateValue.set("stopped");
      this.halted = false;
      return;
    }
    this.running = false;
    this.abort.abort(new Error("Sync stopped"));
    this.wake.abort();
    await this.loopDone;
    this.stateValue.set("stopped");
  }

  /** The browser's online/offline events. Offline aborts the long-poll; online wakes a waiting keep-alive. */
  setOnline(online: boolean): void {
    if (!this.running) return;
    if (online) {
      this.wake.abort();
    } else {
      this.inFlight?.abort(new Error("Browser went offline"));
    }
  }

  /** The page became visible again: probe at once instead of waiting out the keep-alive delay. */
  setVisible(visible: boolean): void {
    if (visible && this.running) this.wake.abort();
  }

  private inFlight: AbortController | undefined;

  private async run(): Promise<void> {
    while (this.running) {
      const state = this.stateValue.getSnapshot();
      const catchingUp = state === "catchup" || state === "reconnecting" || state === "error";
      const pollTimeout = this.options.pollTimeoutMs ?? SYNC_CONSTANTS.DEFAULT_POLL_TIMEOUT_MS;
      const timeout = catchingUp || !this.processedFirst ? 0 : pollTimeout;
      const request = new AbortController();
      this.inFlight = request;
      const onStop = (): void => request.abort(this.abort.signal.reason);
      this.abort.signal.addEventListener("abort", onStop, { once: true });
      const since = this.since;
      let requested = false;
      try {
        // A stored token from before tokens were checked: sending it would send another token.
        if (since !== undefined && !isEchoableToken(since, MAX_TOKEN_LENGTH)) throw new SyncProtocolError();
        const response = await this.options.transport.sync({
          ...(since !== undefined ? { since } : {}),
          timeout,
          requestTimeoutMs: timeout + (this.options.requestMarginMs ?? SYNC_CONSTANTS.REQUEST_MARGIN_MS),
          signal: request.signal,
        });
        requested = true;
        if (!this.running) return;
        // Checked here too, whatever the handler validates: this token is the next request's since.
        const next: unknown = (response as { next_batch?: unknown } | null)?.next_batch;
        if (typeof next === "string" && next !== "" && !isEchoableToken(next, MAX_TOKEN_LENGTH)) {
          throw new SyncProtocolError();
        }
        await this.options.handler(response, { first: !this.processedFirst, catchingUp, since });
        if (!this.running) return;
        this.since = response.next_batch;
        this.failures = 0;
        this.failureValue.set(null);
        this.lastSyncValue.set(this.scheduler.now());
        this.stateValue.set(this.processedFirst ? "syncing" : "prepared");
        this.processedFirst = true;
      } catch (error) {
        if (!this.running) return;
        if (error instanceof MatrixError && error.errcode === "M_UNKNOWN_TOKEN") {
          this.logger.warn(UNKNOWN_TOKEN_MESSAGE);
          this.running = false;
          this.failureValue.set({
            kind: "unknown_token",
            message: UNKNOWN_TOKEN_MESSAGE,
            permanent: true,
            error,
          });
          this.stateValue.set("error");
          this.options.onUnknownToken?.(error.softLogout, error);
          return;
        }
        if (error instanceof SyncProtocolError) {
          // A retry sends the same since and gets the same answer: stop rather than loop.
          this.logger.error(error.message, error);
          this.running = false;
          this.failureValue.set({ kind: "protocol", message: error.message, permanent: true, error });
          this.stateValue.set("error");
          return;
        }
        this.failures += 1;
        const failure = classifySyncFailure(error, requested);
        this.logger.warn(`Sync failed (${this.failures} in a row, ${failure.kind})`, error);
        const atThreshold = this.failures >= SYNC_CONSTANTS.FAILURE_THRESHOLD;
        if (failure.kind === "refused" && atThreshold) {
          this.halt(failure);
          return;
        }
        this.failureValue.set(failure);
        const local =
          failure.kind === "store" || failure.kind === "processing" || failure.kind === "protocol";
        // Only a lost connection (or a refusal the UI shows as such) is "reconnecting": a
        // failed store write or an unparsable answer keeps the state until the threshold.
        if (!local || atThreshold) this.stateValue.set(atThreshold ? "error" : "reconnecting");
        if (!isConnectionFailure(failure)) {
          // The server answered (or the failure is ours): no keep-alive, only a pause before asking again.
          const backoff = backoffDelay(this.failures, REFUSED_BACKOFF);
          await this.wait(failure.retryAfterMs ?? backoff);
          if (!this.running) return;
          if (this.stateValue.getSnapshot() === "error") this.stateValue.set("catchup");
          continue;
        }
        const reachable = await this.keepAlive();
        if (!reachable || !this.running) return;
        if (this.stateValue.getSnapshot() === "error") this.stateValue.set("catchup");
      } finally {
        this.abort.signal.removeEventListener("abort", onStop);
        this.inFlight = undefined;
      }
    }
  }

  /** Ends the loop on a refusal it will not retry: state error, the failure marked permanent. */
  private halt(failure: SyncFailure): void {
    const code = failure.errcode !== undefined ? `${failure.errcode}: ` : "";
    this.logger.error(
      `Sync: the homeserver refused the request (${failure.httpStatus ?? "?"} ${code}${failure.message}); not retrying`,
    );
    this.running = false;
    this.halted = true;
    this.failureValue.set({ ...failure, permanent: true });
    this.stateValue.set("error");
    this.options.onRefused?.({ ...failure, permanent: true });
  }

  /** Waits until the server answers the keep-alive probe. Returns false when stopped. */
  private async keepAlive(): Promise<boolean> {
    let delay = randomBetween(
      this.scheduler,
      SYNC_CONSTANTS.KEEPALIVE_DELAY_MIN_MS,
      SYNC_CONSTANTS.KEEPALIVE_DELAY_MAX_MS,
    );
    while (this.running) {
      await this.wait(delay);
      if (!this.running) return false;
      try {
        await this.options.transport.probe(SYNC_CONSTANTS.KEEPALIVE_TIMEOUT_MS, this.abort.signal);
        return true;
      } catch (error) {
        if (!this.running) return false;
        if (error instanceof MatrixError && (error.httpStatus === 400 || error.httpStatus === 404)) {
          // The server answered: it is reachable, it just does not serve /versions.
          await this.wait(SYNC_CONSTANTS.KEEPALIVE_REACHABLE_DELAY_MS);
          return this.running;
        }
        this.stateValue.set("error");
        delay = randomBetween(
          this.scheduler,
          SYNC_CONSTANTS.KEEPALIVE_RETRY_MIN_MS,
          SYNC_CONSTANTS.KEEPALIVE_RETRY_MAX_MS,
        );
      }
    }
    return false;
  }

  /** Sleeps, unless stop() or a wake-up (online, visible) cuts it short. */
  private async wait(ms: number): Promise<void> {
    if (this.wake.signal.aborted) this.wake = new AbortController();
    const wake = this.wake;
    const both = AbortSignal.any([wake.signal, this.abort.signal]);
    try {
      await this.scheduler.sleep(ms, both);
    } catch {
      // Woken early: fine.
    }
    if (wake.signal.aborted) this.wake = new AbortController();
  }
}
