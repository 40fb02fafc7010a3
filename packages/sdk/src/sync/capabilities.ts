/**
 * The server's capabilities (GET /capabilities), fetched when the client
 * starts and refreshed every CAPABILITIES_REFRESH_MS while it runs. SPEC §9
 * leaves the interval open; we take 5 minutes: capabilities change rarely
 * (an admin toggles a setting, a room version becomes stable) and a stale
 * value only hides or shows a settings control for a while. A failed fetch
 * keeps the last good value, logged, and the next refresh tries again.
 */
import { ResponseFormatError } from "../http/errors";
import type { Logger } from "../util/logger";
import { getCapabilities } from "../api/capabilities";
import type { Capabilities } from "../api/types/server";
import type { HttpApi } from "../http/types";
import { ObservableValue } from "../util/observable";
import type { ReadonlyObservable } from "../util/observable";
import { realScheduler } from "../util/scheduler";
import type { Scheduler } from "../util/scheduler";

/** How often capabilities are fetched again while the client runs (our choice; SPEC §9 gives none). */
export const CAPABILITIES_REFRESH_MS = 5 * 60_000;

export interface CapabilitiesServiceOptions {
  http: HttpApi;
  scheduler?: Scheduler;
  refreshMs?: number;
  logger?: Logger;
}

/** Keeps the capabilities current; `value` is null until the first good answer. */
export class CapabilitiesService {
  private readonly current = new ObservableValue<Capabilities | null>(null);
  private readonly fetchedAt = new ObservableValue<number | null>(null);
  private stopper: AbortController | undefined;
  private inFlight: Promise<Capabilities | null> | undefined;
  private readonly scheduler: Scheduler;
  private readonly logger: Logger;

  constructor(private readonly options: CapabilitiesServiceOptions) {
    this.scheduler = options.scheduler ?? realScheduler;
    this.logger = options.logger ?? console;
  }

  /** The last good capabilities, observable. */
  get value(): ReadonlyObservable<Capabilities | null> {
    return this.current;
  }

  /** When the last good answer arrived (scheduler time), observable. */
  get lastFetchedAt(): ReadonlyObservable<number | null> {
    return this.fetchedAt;
  }

  get isRunning(): boolean {
    return this.stopper !== undefined;
  }

  /** Fetches now and then every refresh interval, until stop(). */
  start(): void {
    if (this.stopper) return;
    const stopper = new AbortController();
    this.stopper = stopper;
    void this.run(stopper.signal);
  }

  stop(): void {
    this.stopper?.abort(new Error("Capabilities refresh stopped"));
    this.stopper = undefined;
  }

  /**
   * Fetches the capabilities now; resolves with the current value (the last
   * good one when this fetch failed). Concurrent calls share one request.
   */
  refresh(): Promise<Capabilities | null> {
    this.inFlight ??= this.fetchOnce().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async run(signal: AbortSignal): Promise<void> {
    const interval = this.options.refreshMs ?? CAPABILITIES_REFRESH_MS;
    while (!signal.aborted) {
      await this.refresh();
      try {
        await this.scheduler.sleep(interval, signal);
      } catch {
        return;
      }
    }
  }

  private async fetchOnce(): Promise<Capabilities | null> {
    try {
      const response: unknown = await getCapabilities(this.options.http, this.stopper?.signal);
      const capabilities = (response as { capabilities?: unknown } | null)?.capabilities;
      if (typeof capabilities !== "object" || capabilities === null || Array.isArray(capabilities)) {
        throw new ResponseFormatError("Capabilities answer without a capabilities object", 200);
      }
      this.current.set(capabilities as Capabilities);
      this.fetchedAt.set(this.scheduler.now());
    } catch (error) {
      this.logger.warn("Fetching capabilities failed; keeping the last known value", error);
    }
    return this.current.getSnapshot();
  }
}
