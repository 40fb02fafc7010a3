/**
 * The server's versions document, cached and refreshed beside the
 * capabilities (every time a capabilities fetch succeeds, so both follow
 * CAPABILITIES_REFRESH_MS), and the ServerFeatures read from the two. One
 * instance per client: every caller that needs /versions (the filter, the
 * media API choice, threads, profiles, mutual rooms) shares this cache
 * instead of asking the server again.
 *
 * A failed fetch is not cached (the next call asks again) and keeps the
 * last good document. `serverFeatures()` never rejects for an error answer:
 * a server that will not serve /versions has no optional feature (nor one
 * that answers junk); only a request that got no answer (network, abort)
 * rejects, so the sync loop counts it as a connection failure.
 */
import type { Logger } from "../util/logger";
import { getVersions } from "../api/versions";
import type { VersionsResponse } from "../api/types/server";
import { MatrixError, ResponseFormatError } from "../http/errors";
import type { HttpApi } from "../http/types";
import { ObservableValue } from "../util/observable";
import type { ReadonlyObservable } from "../util/observable";
import type { CapabilitiesService } from "./capabilities";
import { serverFeaturesOf } from "./server-features";
import type { ServerFeatures } from "./server-features";

export interface ServerInfoOptions {
  http: HttpApi;
  capabilities: CapabilitiesService;
  logger?: Logger;
}

/** The versions document and the features read from it and the capabilities. */
export class ServerInfo {
  private readonly doc = new ObservableValue<VersionsResponse | null>(null);
  private readonly featuresValue = new ObservableValue<ServerFeatures | null>(null);
  private inFlight: Promise<VersionsResponse> | undefined;
  private readonly logger: Logger;
  private readonly unsubscribe: Array<() => void> = [];

  constructor(private readonly options: ServerInfoOptions) {
    this.logger = options.logger ?? console;
    const capabilities = options.capabilities;
    this.unsubscribe.push(
      capabilities.value.subscribe(() => this.recompute()),
      // Each good capabilities fetch refreshes the document too (once there is one to refresh).
      capabilities.lastFetchedAt.subscribe((at) => {
        if (at !== null && this.doc.getSnapshot() !== null) void this.refresh().catch(() => undefined);
      }),
    );
  }

  /** The last good versions document (null until one arrived). */
  get versionsDocument(): ReadonlyObservable<VersionsResponse | null> {
    return this.doc;
  }

  /** The features, once the versions document arrived; recomputed on every new document or capabilities. */
  get features(): ReadonlyObservable<ServerFeatures | null> {
    return this.featuresValue;
  }

  /** The versions document: the cached one, else fetched (a failure is not cached). */
  versions(signal?: AbortSignal): Promise<VersionsResponse> {
    const cached = this.doc.getSnapshot();
    if (cached !== null) return Promise.resolve(cached);
    return this.refresh(signal);
  }

  /**
   * The features: cached, else read from a fresh /versions. A server that
   * answers /versions with an error has none; a request with no answer rejects.
   */
  async serverFeatures(signal?: AbortSignal): Promise<ServerFeatures> {
    const known = this.featuresValue.getSnapshot();
    if (known !== null) return known;
    try {
      await this.versions(signal);
    } catch (error) {
      if (!(error instanceof MatrixError || error instanceof ResponseFormatError)) throw error;
      this.logger.warn("The server answered /versions with an error; using no optional feature", error);
      return serverFeaturesOf(null, this.options.capabilities.value.getSnapshot());
    }
    return this.featuresValue.getSnapshot() ?? serverFeaturesOf(null, null);
  }

  /** Fetches the versions document now; concurrent calls share one request. */
  refresh(signal?: AbortSignal): Promise<VersionsResponse> {
    this.inFlight ??= getVersions(this.options.http, signal ? { signal } : {})
      .then((versions: unknown) => {
        // Junk is no document: the last good one stays (the features read any object safely).
        if (typeof versions !== "object" || versions === null || Array.isArray(versions))
          throw new ResponseFormatError("The versions answer is not an object", 200);
        this.doc.set(versions as VersionsResponse);
        this.recompute();
        return versions as VersionsResponse;
      })
      .catch((error: unknown) => {
        this.logger.info("Fetching /versions failed; keeping the last known document", error);
        throw error;
      })
      .finally(() => {
        this.inFlight = undefined;
      });
    return this.inFlight;
  }

  /** Ends the subscription to the capabilities. */
  dispose(): void {
    for (const end of this.unsubscribe.splice(0)) end();
  }

  private recompute(): void {
    const doc = this.doc.getSnapshot();
    if (doc === null) return;
    this.featuresValue.set(serverFeaturesOf(doc, this.options.capabilities.value.getSnapshot()));
  }
}
