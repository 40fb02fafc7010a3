/**
 * The HTTP side of the SyncLoop: GET /sync with the filter id, since (or the
 * cache-buster), timeout, set_presence and the state-after flag when the
 * server supports it, under the loop's local time-out; and the keep-alive
 * probe, GET /_matrix/client/versions with no prefix.
 *
 * Neither call is retried by the HTTP client: the loop owns failures (its
 * state machine must see every one), so a 5xx, a 429 or a dropped connection
 * reaches it as is. The probe rejects with the MatrixError so the loop can
 * tell 400/404 (reachable) from the rest. A /sync the server answers with
 * "unknown filter" re-creates the filter and is sent again once.
 */
import type { Logger } from "../util/logger";
import { stateAfterFlavour, sync } from "../api/sync";
import type { SetPresence, SyncResponse } from "../api/types/sync";
import { getVersions } from "../api/versions";
import { MatrixError, ResponseFormatError } from "../http/errors";
import type { HttpApi } from "../http/types";
import { isUnknownFilterError } from "./filters";
import type { SyncRequest, SyncTransport } from "./SyncLoop";

/** How the transport asks for MSC4222 state_after: a fixed name, never, or read from /versions. */
export type StateAfterMode = "stable" | "unstable" | "none" | "detect";

/** What the transport needs of the filter manager. */
export interface SyncFilterSource {
  getFilterId(): Promise<string>;
  recreate(): Promise<string>;
}

export interface HttpSyncTransportOptions {
  http: HttpApi;
  /** The filter to sync with; omitted syncs without a filter. */
  filters?: SyncFilterSource;
  /** set_presence on every sync (a getter so the app can change it while syncing). */
  setPresence?: SetPresence | (() => SetPresence | undefined);
  /** Defaults to "detect": ask /versions once, then on every successful probe. */
  stateAfter?: StateAfterMode;
  /** Where the versions document comes from (the client's shared cache); defaults to a GET /versions. */
  versions?: (signal: AbortSignal) => Promise<unknown>;
  /** Clock for the cache-buster; defaults to Date.now. */
  now?: () => number;
  logger?: Logger;
}

/** Wraps an HttpApi so no request is retried by the HTTP layer. */
export function withoutRetries(http: HttpApi): HttpApi {
  return { request: (options) => http.request({ ...options, retry: false }) };
}

/** A SyncTransport over the api functions. */
export class HttpSyncTransport implements SyncTransport {
  private readonly http: HttpApi;
  private flavour: "stable" | "unstable" | undefined;
  private detected: boolean;
  private readonly logger: Logger;

  constructor(private readonly options: HttpSyncTransportOptions) {
    this.http = withoutRetries(options.http);
    const mode = options.stateAfter ?? "detect";
    this.flavour = mode === "stable" || mode === "unstable" ? mode : undefined;
    this.detected = mode !== "detect";
    this.logger = options.logger ?? console;
  }

  /** The state-after name in use, once known. */
  get stateAfter(): "stable" | "unstable" | undefined {
    return this.flavour;
  }

  async sync(request: SyncRequest): Promise<SyncResponse> {
    if (!this.detected) await this.detect(request.signal);
    const filters = this.options.filters;
    let filterId = filters ? await filters.getFilterId() : undefined;
    try {
      return await this.syncOnce(request, filterId);
    } catch (error) {
      if (!filters || !isUnknownFilterError(error)) throw error;
      this.logger.warn(`The server no longer knows filter ${filterId ?? ""}; creating a new one`);
      filterId = await filters.recreate();
      return this.syncOnce(request, filterId);
    }
  }

  async probe(timeoutMs: number, signal: AbortSignal): Promise<void> {
    const versions = await getVersions(this.http, { timeoutMs, signal });
    if ((this.options.stateAfter ?? "detect") === "detect") this.learn(versions);
  }

  private async syncOnce(request: SyncRequest, filterId: string | undefined): Promise<SyncResponse> {
    const presence = this.options.setPresence;
    const setPresence = typeof presence === "function" ? presence() : presence;
    const response: unknown = await sync(this.http, {
      ...(filterId !== undefined ? { filter: filterId } : {}),
      ...(request.since !== undefined
        ? { since: request.since }
        : { cacheBuster: (this.options.now ?? Date.now)() }),
      timeout: request.timeout,
      ...(setPresence !== undefined ? { set_presence: setPresence } : {}),
      ...(this.flavour !== undefined ? { useStateAfter: this.flavour } : {}),
      requestTimeoutMs: request.requestTimeoutMs,
      signal: request.signal,
    });
    // The loop stores next_batch as the token to continue from: without one the answer is unusable.
    const nextBatch = (response as { next_batch?: unknown } | null)?.next_batch;
    if (
      typeof response !== "object" ||
      response === null ||
      typeof nextBatch !== "string" ||
      nextBatch === ""
    ) {
      throw new ResponseFormatError("Sync response has no next_batch", 200);
    }
    return response as SyncResponse;
  }

  /**
   * Reads the versions document once. No answer leaves the flag off and
   * tries again next sync; an error answer means the server has no usable
   * document, so the flag stays off without asking again.
   */
  private async detect(signal: AbortSignal): Promise<void> {
    try {
      const source = this.options.versions;
      this.learn(source ? await source(signal) : await getVersions(this.http, { signal }));
    } catch (error) {
      if (signal.aborted) throw error;
      if (error instanceof MatrixError) this.detected = true;
      this.logger.info("Could not read /versions; syncing without state_after", error);
    }
  }

  private learn(versions: unknown): void {
    if (typeof versions !== "object" || versions === null) return;
    const doc = versions as { versions?: unknown; unstable_features?: unknown };
    const list = Array.isArray(doc.versions) ? doc.versions.filter((v) => typeof v === "string") : [];
    const features =
      typeof doc.unstable_features === "object" && doc.unstable_features !== null
        ? (doc.unstable_features as Record<string, unknown>)
        : {};
    const msc4222 = Object.hasOwn(features, "org.matrix.msc4222") && features["org.matrix.msc4222"] === true;
    this.flavour = stateAfterFlavour({
      versions: list,
      unstable_features: msc4222 ? { "org.matrix.msc4222": true } : {},
    });
    this.detected = true;
  }
}
