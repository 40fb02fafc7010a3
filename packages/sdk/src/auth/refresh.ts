/**
 * TokenRefresher: an HttpApi in front of the HTTP client that keeps the
 * session's access token alive. Rules:
 * - ahead of expiry (injected clock, `refreshAheadMs`), a request first waits
 *   for a refresh;
 * - one refresh at a time: every request that needs one waits on the same
 *   POST /refresh (coalesced), however many there are;
 * - a request answered M_UNKNOWN_TOKEN while a refresh token exists is
 *   retried once with the refreshed token (or with a token another request
 *   already refreshed meanwhile);
 * - pages sharing the stored session (tabs of one origin) refresh one at a
 *   time: the refresh runs under a lock named for the user and device (the
 *   Web Locks API where the platform has it, or `lock`), and a page that got
 *   the lock after another page refreshed takes the stored tokens instead
 *   of spending its refresh token again. Refresh tokens are single-use, and
 *   an OIDC provider that sees one used twice revokes the whole grant
 *   (oidc-provider does), which would sign every tab out. The stored
 *   session may reach the waiting tab late (localStorage is not ordered
 *   with the lock), so the refreshing page also hands its tokens over
 *   through IndexedDB (handoff.ts) before it lets the lock go;
 * - a refused refresh ends the session cleanly (Session.clear with
 *   "refresh_failed"), unless another page sharing the stored session (a
 *   second tab, or this one before a reload) refreshed with the same
 *   single-use token first: its stored tokens are taken instead; a network
 *   failure does not end it (the next request tries again);
 * - M_UNKNOWN_TOKEN with soft_logout and nothing to refresh with is a soft
 *   logout (local data kept); without soft_logout the session is cleared.
 *
 * Requests to other hosts (identity server: a `baseUrl` or `accessToken`
 * override) and unauthenticated ones pass straight through.
 *
 * A session signed in through OIDC (`session.oidc`) refreshes at its
 * provider's token endpoint instead of POST /refresh (the OIDC code is
 * loaded on first use); the provider refusing (4xx) or answering with bad
 * tokens ends the session, no answer (or a 5xx) keeps it.
 */
import { refresh as refreshRequest } from "../api/login";
import type { HttpClientOptions } from "../http/client";
import { MatrixError } from "../http/errors";
import type { HttpApi, RequestOptions } from "../http/types";
import { AuthError } from "./errors";
import { platformHandoff } from "./handoff";
import type { RefreshHandoff } from "./handoff";
import type { ValidatedIssuerMetadata } from "./oidc/wire-types";
import type { Session } from "./session";
import type { OidcSessionInfo } from "./storage";

/** SPEC §9: the refresh request's time-out. */
export const REFRESH_TIMEOUT_MS = 300_000;
/** Refresh this long before the access token expires. */
export const DEFAULT_REFRESH_AHEAD_MS = 30_000;

/**
 * Runs `run` while holding the lock `name`, shared by every page of the
 * origin: the Web Locks API's `navigator.locks.request(name, run)`.
 */
export type RefreshLock = <T>(name: string, run: () => Promise<T>) => Promise<T>;

interface WebLocks {
  request<T>(name: string, run: () => Promise<T>): Promise<T>;
}

/** The platform's Web Locks (browsers, workers), or undefined where there are none (Node). */
function webLocks(): RefreshLock | undefined {
  const locks = (globalThis as { navigator?: { locks?: Partial<WebLocks> } }).navigator?.locks;
  if (typeof locks?.request !== "function") return undefined;
  const manager = locks as WebLocks;
  return (name, run) => manager.request(name, run);
}

export interface TokenRefresherOptions {
  /** The HTTP client of the homeserver (its own token getter is not used for authenticated calls). */
  http: HttpApi;
  session: Session;
  /** Clock; defaults to Date.now. */
  now?: () => number;
  refreshAheadMs?: number;
  /** The lock pages sharing the stored session refresh under: the platform's Web Locks unless given; null for none. */
  lock?: RefreshLock | null;
  /** How a page that refreshed under the lock hands its tokens to the next: IndexedDB unless given; null for none. */
  handoff?: RefreshHandoff | null;
}

function isUnknownToken(err: unknown): err is MatrixError {
  return err instanceof MatrixError && err.errcode === "M_UNKNOWN_TOKEN";
}

export class TokenRefresher implements HttpApi {
  private readonly http: HttpApi;
  private readonly session: Session;
  private readonly now: () => number;
  private readonly aheadMs: number;
  private inflight: Promise<void> | null = null;
  private readonly lock: RefreshLock | undefined;
  private readonly handoff: RefreshHandoff | undefined;
  private oidcMetadata: { issuer: string; metadata: Promise<ValidatedIssuerMetadata> } | undefined;

  constructor(options: TokenRefresherOptions) {
    this.http = options.http;
    this.session = options.session;
    this.now = options.now ?? Date.now;
    this.aheadMs = options.refreshAheadMs ?? DEFAULT_REFRESH_AHEAD_MS;
    this.lock = options.lock === null ? undefined : (options.lock ?? webLocks());
    this.handoff =
      options.handoff === null || this.lock === undefined
        ? undefined
        : (options.handoff ?? platformHandoff());
    if (this.handoff !== undefined) this.forgetOnSignOut(this.handoff);
  }

  /** Signed out or soft logged out: the handoff's record of this user and device goes too. */
  private forgetOnSignOut(handoff: RefreshHandoff): void {
    let name = this.lockName();
    this.session.state.subscribe((state) => {
      if (state.kind === "signed_in") name = this.lockName();
      else if (name !== undefined) void handoff.forget(name).catch(() => undefined);
    });
  }

  /** The pages' lock for this user and device; undefined while signed out. */
  private lockName(): string | undefined {
    const { userId, deviceId } = this.session;
    return userId === undefined ? undefined : `lattice.refresh ${userId} ${deviceId ?? ""}`;
  }

  /**
   * The usual wiring: an HTTP client on the session's homeserver reading the
   * session's token, wrapped in a refresher.
   */
  static forSession(
    session: Session,
    options: Omit<HttpClientOptions, "baseUrl" | "accessToken"> & {
      refreshAheadMs?: number;
      lock?: RefreshLock | null;
      handoff?: RefreshHandoff | null;
    } = {},
  ): TokenRefresher {
    const { refreshAheadMs, lock, handoff, ...httpOptions } = options;
    return new TokenRefresher({
      http: session.createHttpClient(httpOptions),
      session,
      ...(httpOptions.now ? { now: httpOptions.now } : {}),
      ...(refreshAheadMs !== undefined ? { refreshAheadMs } : {}),
      lock,
      handoff,
    });
  }

  /** The homeserver URL of the wrapped client, when it has one (what homeserverUrlOf reads). */
  get baseUrl(): string | undefined {
    const url = (this.http as { baseUrl?: unknown }).baseUrl;
    return typeof url === "string" ? url : undefined;
  }

  /** Whether the access token is due for a refresh by the clock. */
  get due(): boolean {
    const expiresAt = this.session.expiresAt;
    return this.session.canRefresh && expiresAt !== undefined && expiresAt - this.now() <= this.aheadMs;
  }

  async request<T>(options: RequestOptions): Promise<T> {
    if (
      options.authenticated === false ||
      options.accessToken !== undefined ||
      options.baseUrl !== undefined
    ) {
      return this.http.request<T>(options);
    }
    if (this.due) {
      try {
        await this.refresh();
      } catch (err) {
        // A refresh ahead of time that failed for want of a network: the old token may still do.
        const expiresAt = this.session.expiresAt;
        if (err instanceof AuthError || expiresAt === undefined || expiresAt <= this.now()) throw err;
      }
    }
    const sent = this.session.getAccessToken();
    try {
      return await this.send<T>(options, sent);
    } catch (err) {
      if (!isUnknownToken(err)) throw err;
      if (this.session.canRefresh) {
        // Another request may have refreshed while this one was in flight.
        if (this.session.getAccessToken() === sent) await this.refresh();
        return this.send<T>(options, this.session.getAccessToken());
      }
      if (this.session.getAccessToken() === sent && sent !== undefined) {
        if (err.softLogout) await this.session.softLogout();
        else await this.session.clear("token_invalid", err);
      }
      throw err;
    }
  }

  private send<T>(options: RequestOptions, token: string | undefined): Promise<T> {
    if (token === undefined) {
      return Promise.reject(new AuthError("NOT_SIGNED_IN", "No access token: sign in again"));
    }
    return this.http.request<T>({ ...options, accessToken: token });
  }

  /** Refreshes the access token now; concurrent callers share one POST /refresh. */
  refresh(): Promise<void> {
    this.inflight ??= this.doRefresh().finally(() => {
      this.inflight = null;
    });
    return this.inflight;
  }

  /** Under the pages' lock when there is one: a page refreshing meanwhile has tokens to hand over. */
  private doRefresh(): Promise<void> {
    const name = this.lockName();
    if (this.lock === undefined || name === undefined) return this.refreshNow(undefined);
    return this.lock(name, () => this.refreshNow(name));
  }

  /** Refreshes; under the lock `lockName`, first takes another page's tokens, and after, hands ours over. */
  private async refreshNow(lockName: string | undefined): Promise<void> {
    const refreshToken = this.session.getRefreshToken();
    if (refreshToken === undefined) throw new AuthError("REFRESH_FAILED", "No refresh token");
    // Another page refreshed while we waited for the lock: our refresh token is spent, its tokens are ours.
    if (lockName !== undefined && (await this.takeHandedOver(lockName, refreshToken))) return;
    const oidc = this.session.oidc;
    if (oidc !== undefined) await this.refreshOidc(oidc, refreshToken);
    else await this.refreshMatrix(refreshToken);
    if (lockName !== undefined) await this.handOver(lockName, refreshToken);
  }

  /** The stored session if it already shows another page's refresh, else the handoff's record. */
  private async takeHandedOver(lockName: string, refreshToken: string): Promise<boolean> {
    if (await this.session.adoptStoredTokens(refreshToken)) return true;
    const handed = await this.handoff?.take(lockName, refreshToken).catch(() => undefined);
    if (handed === undefined || this.session.getRefreshToken() !== refreshToken) return false;
    await this.session.updateTokens(handed);
    return true;
  }

  /** Records our refresh for the pages waiting on the lock (best effort: their refusal path remains). */
  private async handOver(lockName: string, used: string): Promise<void> {
    const accessToken = this.session.getAccessToken();
    if (this.handoff === undefined || accessToken === undefined) return;
    const tokens = {
      accessToken,
      refreshToken: this.session.getRefreshToken(),
      expiresAt: this.session.expiresAt,
    };
    await this.handoff.give(lockName, used, tokens).catch(() => undefined);
  }

  private async refreshMatrix(refreshToken: string): Promise<void> {
    let answer: unknown;
    try {
      answer = await refreshRequest(this.http, refreshToken, { timeoutMs: REFRESH_TIMEOUT_MS });
    } catch (err) {
      if (err instanceof MatrixError) {
        // Refused: another page sharing the session may have used this token first (then its tokens are ours).
        if (await this.session.adoptStoredTokens(refreshToken)) return;
        // The server refused the refresh token: the session is over.
        if (err.softLogout) await this.session.softLogout();
        else await this.session.clear("refresh_failed", err);
        throw new AuthError("REFRESH_FAILED", "The session could not be refreshed", { cause: err });
      }
      throw err; // network trouble: keep the session, a later request tries again
    }
    const body = answer as {
      access_token?: unknown;
      refresh_token?: unknown;
      expires_in_ms?: unknown;
    } | null;
    if (typeof body?.access_token !== "string") {
      const err = new AuthError("BAD_RESPONSE", "Invalid refresh response");
      await this.session.clear("refresh_failed", err);
      throw new AuthError("REFRESH_FAILED", "The session could not be refreshed", { cause: err });
    }
    await this.session.updateTokens({
      accessToken: body.access_token,
      ...(typeof body.refresh_token === "string" ? { refreshToken: body.refresh_token } : {}),
      ...(typeof body.expires_in_ms === "number" && Number.isFinite(body.expires_in_ms)
        ? { expiresInMs: body.expires_in_ms }
        : {}),
    });
  }

  /** The provider's metadata, fetched once per refresher (again after a failed fetch). */
  private providerMetadata(issuer: string): Promise<ValidatedIssuerMetadata> {
    if (this.oidcMetadata?.issuer !== issuer) {
      const metadata = import("./oidc/index").then(({ discoverProvider }) => discoverProvider(issuer));
      metadata.catch(() => {
        if (this.oidcMetadata?.metadata === metadata) this.oidcMetadata = undefined;
      });
      this.oidcMetadata = { issuer, metadata };
    }
    return this.oidcMetadata.metadata;
  }

  private async refreshOidc(oidc: OidcSessionInfo, refreshToken: string): Promise<void> {
    const { refreshAccessToken, OidcError } = await import("./oidc/index");
    let refreshed;
    try {
      refreshed = await refreshAccessToken({
        metadata: await this.providerMetadata(oidc.issuer),
        clientId: oidc.clientId,
        refreshToken,
        now: this.now,
        ...(oidc.subject !== undefined ? { expectedSubject: oidc.subject } : {}),
      });
    } catch (err) {
      const refused =
        err instanceof OidcError &&
        (err.code === "InvalidBearerTokenResponse" ||
          err.code === "InvalidIdToken" ||
          (err.code === "RefreshFailed" && err.status !== undefined && err.status < 500));
      if (!refused) throw err; // no answer: keep the session, a later request tries again
      // Refused: another page sharing the session may have used this token first (then its tokens are ours).
      if (await this.session.adoptStoredTokens(refreshToken)) return;
      await this.session.clear("refresh_failed", err);
      throw new AuthError("REFRESH_FAILED", "The session could not be refreshed", { cause: err });
    }
    await this.session.updateTokens({
      accessToken: refreshed.tokens.access_token,
      refreshToken: refreshed.tokens.refresh_token,
      expiresInMs: refreshed.tokens.expires_in * 1000,
    });
  }
}
