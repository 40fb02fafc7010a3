/**
 * The one place that holds a signed-in session's tokens (access, refresh,
 * expiry), its user and device ids and its homeserver and identity server
 * URLs, persisted through an injectable SessionStorage. Its state is an
 * observable value (signed in, soft logged out, signed out with a reason),
 * so the app can react to a logout that happens under it (a failed refresh,
 * a revoked token).
 *
 * The access token leaves this object only as an Authorization header for
 * the homeserver: media URLs are built without it (downloads send the
 * header), and the header helper refuses any other origin.
 */
import { AuthError } from "./errors";
import { mxcToHttp } from "../api/media";
import type { MxcToHttpOptions } from "../api/media";
import { createHttpClient } from "../http/client";
import type { HttpClient, HttpClientOptions } from "../http/client";
import { ObservableValue } from "../util/observable";
import type { ReadonlyObservable } from "../util/observable";
import { SOFT_LOGOUT_MESSAGE } from "./errors";
import type { OidcSessionInfo, SessionData, SessionStorage } from "./storage";

/** Why a session ended. */
export type SignOutReason =
  /** The user signed out (or out everywhere). */
  | "logout"
  /** The refresh token was refused. */
  | "refresh_failed"
  /** The server no longer knows the access token and there is nothing to refresh it with. */
  | "token_invalid"
  /** The account was deactivated. */
  | "deactivated";

/** The session's state, as an observable value. */
export type SessionState =
  | { kind: "signed_out"; reason?: SignOutReason; error?: unknown }
  | { kind: "signed_in"; userId: string; deviceId: string; isGuest: boolean }
  | {
      kind: "soft_logged_out";
      userId: string;
      deviceId: string;
      /** SOFT_LOGOUT_MESSAGE: sign in again (with the same device id) to resume. */
      message: string;
    };

/** New tokens from a refresh. */
export interface TokenUpdate {
  accessToken: string;
  refreshToken?: string;
  expiresInMs?: number;
  /** Absolute expiry (ms since the epoch), for tokens another page refreshed; wins over expiresInMs. */
  expiresAt?: number;
}

export interface SessionOptions {
  /** Clock for token expiry; defaults to Date.now. */
  now?: () => number;
}

function stateOf(data: SessionData | null): SessionState {
  if (data === null) return { kind: "signed_out" };
  if (data.accessToken === undefined) {
    return {
      kind: "soft_logged_out",
      userId: data.userId,
      deviceId: data.deviceId,
      message: SOFT_LOGOUT_MESSAGE,
    };
  }
  return { kind: "signed_in", userId: data.userId, deviceId: data.deviceId, isGuest: data.isGuest === true };
}

/** A session and its tokens. Create with `Session.restore` to resume a stored one. */
export class Session {
  private data: SessionData | null;
  private readonly stateValue: ObservableValue<SessionState>;
  private readonly now: () => number;

  constructor(
    private readonly storage: SessionStorage,
    initial: SessionData | null = null,
    options: SessionOptions = {},
  ) {
    this.data = initial === null ? null : { ...initial };
    this.stateValue = new ObservableValue(stateOf(this.data));
    this.now = options.now ?? Date.now;
  }

  /** Emits the state derived from the data, unless it is the same as now (a refresh is no news). */
  private publish(): void {
    const next = stateOf(this.data);
    if (JSON.stringify(next) !== JSON.stringify(this.stateValue.getSnapshot())) this.stateValue.set(next);
  }

  /** Loads the stored session (if any) from `storage`. */
  static async restore(storage: SessionStorage, options: SessionOptions = {}): Promise<Session> {
    return new Session(storage, await storage.load(), options);
  }

  /** Signed in, soft logged out or signed out (with why). */
  get state(): ReadonlyObservable<SessionState> {
    return this.stateValue;
  }

  get userId(): string | undefined {
    return this.data?.userId;
  }

  get deviceId(): string | undefined {
    return this.data?.deviceId;
  }

  get homeserverUrl(): string | undefined {
    return this.data?.homeserverUrl;
  }

  get identityServerUrl(): string | undefined {
    return this.data?.identityServerUrl;
  }

  get isGuest(): boolean {
    return this.data?.isGuest === true;
  }

  /** The OIDC provider and client of a session signed in through OIDC; undefined otherwise. */
  get oidc(): OidcSessionInfo | undefined {
    return this.data?.oidc;
  }

  /** Whether a refresh token is held (so an expired access token can be replaced). */
  get canRefresh(): boolean {
    return this.data?.refreshToken !== undefined;
  }

  /** The refresh token, for the TokenRefresher only. */
  getRefreshToken(): string | undefined {
    return this.data?.refreshToken;
  }

  /** When the access token expires (ms since the epoch), if it does. */
  get expiresAt(): number | undefined {
    return this.data?.expiresAt;
  }

  /**
   * The access token, for the HTTP client's bearer header only. Never put
   * it in a URL or hand it to a widget; use `authorizationFor` elsewhere.
   */
  getAccessToken(): string | undefined {
    return this.data?.accessToken;
  }

  /** Starts (or, after a soft logout, resumes) a session. */
  async signIn(data: SessionData): Promise<void> {
    const next: SessionData = { ...data };
    // Keep the identity server chosen before a re-login unless the new one says otherwise.
    if (next.identityServerUrl === undefined && this.data?.identityServerUrl !== undefined) {
      next.identityServerUrl = this.data.identityServerUrl;
    }
    await this.storage.save(next);
    this.data = next;
    this.publish();
  }

  /** Replaces the tokens after a refresh. */
  async updateTokens(update: TokenUpdate): Promise<void> {
    if (this.data === null) return;
    const next: SessionData = { ...this.data, accessToken: update.accessToken };
    if (update.refreshToken !== undefined) next.refreshToken = update.refreshToken;
    if (update.expiresAt !== undefined) next.expiresAt = update.expiresAt;
    else if (update.expiresInMs !== undefined) next.expiresAt = this.now() + update.expiresInMs;
    else delete next.expiresAt;
    await this.storage.save(next);
    this.data = next;
    this.publish();
  }

  /**
   * Before spending `usedRefreshToken` under the pages' refresh lock, or
   * after it was refused: takes the tokens another page
   * sharing this storage (another tab, or this tab before a reload)
   * stored since. Refresh tokens are single-use, so two pages refreshing
   * with the same one see the second refused although the session lives
   * on. True when the stored session is this same user and device with
   * other tokens (they are taken); false when the refusal stands.
   */
  async adoptStoredTokens(usedRefreshToken: string): Promise<boolean> {
    const current = this.data;
    if (current === null) return false;
    let stored: SessionData | null;
    try {
      stored = await this.storage.load();
    } catch {
      return false;
    }
    if (
      stored === null ||
      stored.userId !== current.userId ||
      stored.deviceId !== current.deviceId ||
      stored.accessToken === undefined ||
      stored.refreshToken === undefined ||
      stored.refreshToken === usedRefreshToken
    ) {
      return false;
    }
    const next: SessionData = {
      ...current,
      accessToken: stored.accessToken,
      refreshToken: stored.refreshToken,
    };
    if (stored.expiresAt !== undefined) next.expiresAt = stored.expiresAt;
    else delete next.expiresAt;
    this.data = next;
    this.publish();
    return true;
  }

  /**
   * Soft logout: the server dropped the access token but the device lives
   * on. The tokens go; user, device and everything stored locally stay, so
   * signing in again with the same device id resumes the session.
   */
  async softLogout(): Promise<void> {
    if (this.data === null) return;
    const next: SessionData = { ...this.data };
    delete next.accessToken;
    delete next.refreshToken;
    delete next.expiresAt;
    await this.storage.save(next);
    this.data = next;
    this.publish();
  }

  /** Ends the session: tokens and stored session removed, state signed_out with `reason`. */
  async clear(reason: SignOutReason, error?: unknown): Promise<void> {
    this.data = null;
    try {
      await this.storage.clear();
    } finally {
      this.stateValue.set(
        error === undefined ? { kind: "signed_out", reason } : { kind: "signed_out", reason, error },
      );
    }
  }

  /** Chooses (or, with undefined, forgets) the identity server. */
  async setIdentityServerUrl(url: string | undefined): Promise<void> {
    if (this.data === null) return;
    const next: SessionData = { ...this.data };
    if (url === undefined) delete next.identityServerUrl;
    else next.identityServerUrl = url;
    await this.storage.save(next);
    this.data = next;
  }

  /**
   * The HTTP URL of an mxc URI on this homeserver, without any token: the
   * authenticated media endpoints take the token as a header (see
   * `authorizationFor`), never in the query string.
   */
  mediaUrl(mxc: string, options: MxcToHttpOptions = {}): string {
    if (this.data === null) throw new AuthError("NOT_SIGNED_IN", "No session: sign in first");
    return mxcToHttp(this.data.homeserverUrl, mxc, options);
  }

  /**
   * The Authorization header for a request to `url`, or an empty record when
   * `url` is not on the homeserver: the access token goes nowhere else.
   */
  authorizationFor(url: string): Record<string, string> {
    const token = this.data?.accessToken;
    if (this.data === null || token === undefined) return {};
    let target: URL;
    let home: URL;
    try {
      target = new URL(url);
      home = new URL(this.data.homeserverUrl);
    } catch {
      return {};
    }
    return target.origin === home.origin ? { Authorization: `Bearer ${token}` } : {};
  }

  /** An HTTP client for this session's homeserver that reads the current token on every request. */
  createHttpClient(options: Omit<HttpClientOptions, "baseUrl" | "accessToken"> = {}): HttpClient {
    if (this.data === null) throw new AuthError("NOT_SIGNED_IN", "No session: sign in first");
    return createHttpClient({
      ...options,
      baseUrl: this.data.homeserverUrl,
      accessToken: () => this.getAccessToken(),
    });
  }
}
