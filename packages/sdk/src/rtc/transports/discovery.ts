/**
 * Where our media goes: the LiveKit transports to offer in our membership.
 * Asked of the homeserver first (`GET /_matrix/client/unstable/
 * org.matrix.msc4143/rtc/transports`), then of its client well-known
 * (`org.matrix.msc4143.rtc_foci`), then taken from configuration. The answer
 * is cached for REFRESH_MS and refreshed on the next ask after that; a
 * failed refresh keeps the last good answer.
 */
import type { HttpApi } from "../../http/types";
import { Prefix } from "../../http/types";
import type { Scheduler } from "../../util/scheduler";
import { parseTransports } from "../membership/parse";
import type { RtcTransport } from "../membership/types";

export const RTC_TRANSPORTS_PREFIX = "/_matrix/client/unstable/org.matrix.msc4143";
export const RTC_FOCI_WELL_KNOWN_KEY = "org.matrix.msc4143.rtc_foci";
export const TRANSPORTS_REFRESH_MS = 60 * 60 * 1000;

export type TransportSource = "server" | "well-known" | "config" | "none";

export interface DiscoveredTransports {
  readonly transports: readonly RtcTransport[];
  readonly source: TransportSource;
}

export interface TransportsDiscoveryOptions {
  http: HttpApi;
  scheduler: Scheduler;
  /** Transports from the app's configuration, the last resort. */
  configured?: readonly RtcTransport[];
}

export class TransportsDiscovery {
  private cached: { at: number; value: DiscoveredTransports } | undefined;
  private inFlight: Promise<DiscoveredTransports> | undefined;

  constructor(private readonly options: TransportsDiscoveryOptions) {}

  /** The cached answer while fresh, otherwise a new lookup. */
  get(): Promise<DiscoveredTransports> {
    const { scheduler } = this.options;
    if (this.cached && scheduler.now() - this.cached.at < TRANSPORTS_REFRESH_MS)
      return Promise.resolve(this.cached.value);
    this.inFlight ??= this.lookup().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  private async lookup(): Promise<DiscoveredTransports> {
    const value = (await this.fromServer()) ?? (await this.fromWellKnown()) ?? this.fromConfig();
    // "none" is not cached as good: the next ask tries again.
    if (value.source !== "none") this.cached = { at: this.options.scheduler.now(), value };
    else if (this.cached) return this.cached.value;
    return value;
  }

  private async fromServer(): Promise<DiscoveredTransports | undefined> {
    try {
      const body = await this.options.http.request<unknown>({
        method: "GET",
        prefix: RTC_TRANSPORTS_PREFIX,
        path: "/rtc/transports",
        retry: false,
      });
      const list =
        typeof body === "object" && body !== null
          ? (body as Record<string, unknown>)["rtc_transports"]
          : undefined;
      const transports = parseTransports(list);
      return transports.length > 0 ? { transports, source: "server" } : undefined;
    } catch {
      return undefined;
    }
  }

  private async fromWellKnown(): Promise<DiscoveredTransports | undefined> {
    try {
      const body = await this.options.http.request<unknown>({
        method: "GET",
        prefix: Prefix.None,
        path: "/.well-known/matrix/client",
        authenticated: false,
        retry: false,
      });
      const raw =
        typeof body === "object" &&
        body !== null &&
        Object.prototype.hasOwnProperty.call(body, RTC_FOCI_WELL_KNOWN_KEY)
          ? (body as Record<string, unknown>)[RTC_FOCI_WELL_KNOWN_KEY]
          : undefined;
      const transports = parseTransports(raw);
      return transports.length > 0 ? { transports, source: "well-known" } : undefined;
    } catch {
      return undefined;
    }
  }

  private fromConfig(): DiscoveredTransports {
    const configured = this.options.configured ?? [];
    return configured.length > 0
      ? { transports: configured, source: "config" }
      : { transports: [], source: "none" };
  }
}
