/**
 * Chooses the sync protocol for the SyncLoop: simplified sliding sync
 * (MSC4186) when the server advertises it in /versions, sync v2 otherwise,
 * or the one an option forces. In "auto" mode a server that advertises
 * sliding sync but answers its endpoint with 404, 405 or 400 M_UNRECOGNIZED
 * is synced with v2 from then on (logged). One loop serves both: this is a
 * SyncTransport, so the state machine, keep-alive, catch-up and unknown-token
 * handling are the loop's, unchanged.
 *
 * Tokens stay with their protocol (token.ts): v2 never sees a sliding token
 * as `since` (it starts afresh instead), and the sliding transport ignores a
 * v2 token.
 */
import type { Logger } from "../../util/logger";
import { getVersions, hasUnstableFeature } from "../../api/versions";
import { SLIDING_SYNC_FEATURE } from "../../api/unstable";
import type { SyncResponse } from "../../api/types/sync";
import { isUnrecognisedError, MatrixError } from "../../http/errors";
import type { HttpApi } from "../../http/types";
import { ObservableValue } from "../../util/observable";
import type { ReadonlyObservable } from "../../util/observable";
import type { SyncRequest, SyncTransport } from "../SyncLoop";
import { withoutRetries } from "../transport";
import { v2Since } from "./token";

/** Which protocol to sync with: "auto" (the default) asks the server. */
export type SyncMode = "auto" | "v2" | "sliding";

/** The protocol in use. */
export type ActiveSyncMode = "v2" | "sliding";

export interface SelectingSyncTransportOptions {
  http: HttpApi;
  mode?: SyncMode;
  v2: SyncTransport;
  sliding: SyncTransport;
  /** Where the versions document comes from (the client's shared cache); defaults to a GET /versions. */
  versions?: (signal: AbortSignal) => Promise<unknown>;
  logger?: Logger;
}

/** Whether a versions document advertises simplified sliding sync. */
export function advertisesSlidingSync(versions: unknown): boolean {
  if (typeof versions !== "object" || versions === null) return false;
  const doc = versions as Parameters<typeof hasUnstableFeature>[0];
  const stable = SLIDING_SYNC_FEATURE.stable;
  return (
    hasUnstableFeature(doc, SLIDING_SYNC_FEATURE.unstable) ||
    (stable !== null && hasUnstableFeature(doc, stable))
  );
}

/** A SyncTransport that delegates to sync v2 or sliding sync. */
export class SelectingSyncTransport implements SyncTransport {
  private readonly http: HttpApi;
  private readonly logger: Logger;
  private readonly modeValue = new ObservableValue<ActiveSyncMode | null>(null);

  constructor(private readonly options: SelectingSyncTransportOptions) {
    this.http = withoutRetries(options.http);
    this.logger = options.logger ?? console;
    const mode = options.mode ?? "auto";
    if (mode !== "auto") this.modeValue.set(mode);
  }

  /** The protocol in use; null until "auto" has asked the server. */
  get activeMode(): ReadonlyObservable<ActiveSyncMode | null> {
    return this.modeValue;
  }

  async sync(request: SyncRequest): Promise<SyncResponse> {
    const mode = this.modeValue.getSnapshot() ?? (await this.choose(request.signal));
    if (mode === "sliding") {
      try {
        return await this.options.sliding.sync(request);
      } catch (error) {
        if ((this.options.mode ?? "auto") !== "auto" || !isUnrecognisedError(error)) throw error;
        this.logger.warn(
          "Sliding sync is advertised but its endpoint is not recognised; using sync v2",
          error,
        );
        this.modeValue.set("v2");
      }
    }
    const { since, ...rest } = request;
    const v2 = v2Since(since);
    return await this.options.v2.sync(v2 !== undefined ? { ...rest, since: v2 } : rest);
  }

  probe(timeoutMs: number, signal: AbortSignal): Promise<void> {
    const active = this.modeValue.getSnapshot() === "sliding" ? this.options.sliding : this.options.v2;
    return active.probe(timeoutMs, signal);
  }

  /**
   * Reads /versions once. A server error answer means no sliding sync; a
   * network failure is thrown, so the loop counts it and asks again later.
   */
  private async choose(signal: AbortSignal): Promise<ActiveSyncMode> {
    let mode: ActiveSyncMode;
    try {
      const versions = this.options.versions
        ? await this.options.versions(signal)
        : await getVersions(this.http, { signal });
      mode = advertisesSlidingSync(versions) ? "sliding" : "v2";
    } catch (error) {
      if (!(error instanceof MatrixError)) throw error;
      mode = "v2";
    }
    this.logger.info(`Sync: using ${mode === "sliding" ? "simplified sliding sync (MSC4186)" : "sync v2"}`);
    this.modeValue.set(mode);
    return mode;
  }
}
