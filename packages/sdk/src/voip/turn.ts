/**
 * TURN credentials from GET /voip/turnServer (SPEC §7, §9): fetched at
 * start and checked every 600000 ms; credentials that would expire before
 * the next check (the server's ttl) are fetched again. A 403 stops the
 * polling for good; other failures wait for the next check. Without TURN,
 * the fallback STUN server is offered only when the user allowed it.
 */
import { getTurnServer } from "../api/voip";
import type { TurnServerResponse } from "../api/types/server";
import { MatrixError } from "../http/errors";
import type { HttpApi } from "../http/types";
import type { Scheduler } from "../util/scheduler";
import { ObservableValue } from "../util/observable";
import type { ReadonlyObservable } from "../util/observable";
import type { IceServer } from "./platform";
import { OwnedTimers } from "./timers";
import { CallError } from "./call/types";

export const TURN_CHECK_INTERVAL_MS = 600_000;
export const DEFAULT_FALLBACK_STUN = "stun:turn.matrix.org";

export interface TurnServersOptions {
  /** The request; defaults to GET /voip/turnServer over `http`. */
  fetchTurn?: () => Promise<TurnServerResponse>;
  http?: HttpApi;
  scheduler: Scheduler;
  /** Whether the user allowed the fallback STUN server (read at each use). */
  fallbackAllowed: () => boolean;
  fallbackStunServer?: string;
  logger?: { warn(message: string, error?: unknown): void };
}

export interface TurnState {
  servers: IceServer[];
  /** When the current credentials expire (ms since the epoch); 0 before any. */
  expiresAt: number;
  /** Polling stopped (403). */
  stopped: boolean;
}

export class TurnServers {
  private readonly state = new ObservableValue<TurnState>({ servers: [], expiresAt: 0, stopped: false });
  private readonly timers: OwnedTimers;
  private readonly fetchTurn: () => Promise<TurnServerResponse>;
  private started = false;

  constructor(private readonly options: TurnServersOptions) {
    this.timers = new OwnedTimers(options.scheduler);
    const http = options.http;
    this.fetchTurn =
      options.fetchTurn ??
      (() =>
        http
          ? getTurnServer(http)
          : Promise.reject(new CallError("not_supported", "No HTTP client for TURN")));
  }

  get current(): ReadonlyObservable<TurnState> {
    return this.state;
  }

  /** Fetches now and checks every 600000 ms until stopped. */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.timers.every(TURN_CHECK_INTERVAL_MS, () => void this.check());
    await this.check();
  }

  stop(): void {
    this.started = false;
    this.timers.clear();
  }

  /** The ICE servers for a new call: valid TURN credentials, else the fallback STUN if allowed. */
  iceServers(): IceServer[] {
    const { servers, expiresAt } = this.state.getSnapshot();
    if (servers.length > 0 && expiresAt > this.options.scheduler.now()) return servers;
    if (this.options.fallbackAllowed())
      return [{ urls: this.options.fallbackStunServer ?? DEFAULT_FALLBACK_STUN }];
    return [];
  }

  /** Fetches when the credentials would expire before the next check. */
  private async check(): Promise<void> {
    const now = this.options.scheduler.now();
    if (this.state.getSnapshot().expiresAt - now >= TURN_CHECK_INTERVAL_MS) return;
    try {
      const res = await this.fetchTurn();
      if (!this.started) return;
      // A server without TURN answers {}: no servers, checked again later.
      const uris = Array.isArray(res.uris) ? res.uris : [];
      const servers: IceServer[] =
        uris.length > 0 ? [{ urls: uris, username: res.username, credential: res.password }] : [];
      const ttlMs = typeof res.ttl === "number" ? res.ttl * 1000 : 0;
      this.state.set({ servers, expiresAt: this.options.scheduler.now() + ttlMs, stopped: false });
    } catch (error) {
      if (error instanceof MatrixError && error.httpStatus === 403) {
        this.stop();
        this.state.set({ ...this.state.getSnapshot(), stopped: true });
        return;
      }
      this.options.logger?.warn("Failed to get TURN servers; trying again at the next check", error);
    }
  }
}
