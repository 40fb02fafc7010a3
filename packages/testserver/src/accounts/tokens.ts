/**
 * Access, refresh, login and OpenID tokens. Access tokens issued together
 * with a refresh token expire after config.accessTokenLifetimeMs; an expired
 * one is reported as "expired" so the front answers M_UNKNOWN_TOKEN with
 * soft_logout true. Refreshing rotates both tokens.
 */
import type { ServerContext } from "../core/context";

export interface AccessToken {
  token: string;
  userId: string;
  deviceId: string;
  isGuest: boolean;
  /** Absolute expiry (ms) for tokens issued with a refresh token. */
  expiresAt?: number;
  /** Set by the handle to force soft logout. */
  forcedExpired?: boolean;
}

interface RefreshToken {
  token: string;
  userId: string;
  deviceId: string;
  isGuest: boolean;
}

interface ShortLivedToken {
  userId: string;
  expiresAt: number;
}

/** Tokens a successful login or refresh hands out. */
export type IssuedTokens = {
  access_token: string;
  refresh_token?: string;
  expires_in_ms?: number;
};

/** Login tokens (m.login.token) live two minutes, as in Synapse. */
export const LOGIN_TOKEN_LIFETIME_MS = 120_000;
/** OpenID tokens live an hour, as in Synapse. */
export const OPENID_TOKEN_LIFETIME_MS = 3_600_000;

export class TokenStore {
  private readonly access = new Map<string, AccessToken>();
  private readonly refresh = new Map<string, RefreshToken>();
  private readonly login = new Map<string, ShortLivedToken>();
  private readonly openid = new Map<string, ShortLivedToken>();

  constructor(private readonly ctx: ServerContext) {}

  /** Issues an access token (and a refresh token when asked) for a device. */
  issue(userId: string, deviceId: string, isGuest: boolean, withRefresh: boolean): IssuedTokens {
    const token = this.ctx.ids.token("syt");
    const entry: AccessToken = { token, userId, deviceId, isGuest };
    const out: IssuedTokens = { access_token: token };
    if (withRefresh) {
      const lifetime = this.ctx.config.accessTokenLifetimeMs;
      entry.expiresAt = this.ctx.clock.now() + lifetime;
      const refreshToken = this.ctx.ids.token("syr");
      this.refresh.set(refreshToken, { token: refreshToken, userId, deviceId, isGuest });
      out.refresh_token = refreshToken;
      out.expires_in_ms = lifetime;
    }
    this.access.set(token, entry);
    return out;
  }

  /** The token's record; "expired" past its lifetime. */
  lookup(token: string): AccessToken | "expired" | undefined {
    const entry = this.access.get(token);
    if (!entry) return undefined;
    if (entry.forcedExpired || (entry.expiresAt !== undefined && entry.expiresAt <= this.ctx.clock.now())) {
      return "expired";
    }
    return entry;
  }

  /** Rotates a refresh token: new access and refresh tokens, the old refresh token is spent. */
  rotate(refreshToken: string): (IssuedTokens & { userId: string; deviceId: string }) | undefined {
    const entry = this.refresh.get(refreshToken);
    if (!entry) return undefined;
    this.refresh.delete(refreshToken);
    const issued = this.issue(entry.userId, entry.deviceId, entry.isGuest, true);
    return { ...issued, userId: entry.userId, deviceId: entry.deviceId };
  }

  /** Revokes every access and refresh token of a device. */
  revokeDevice(userId: string, deviceId: string): void {
    for (const [k, v] of this.access)
      if (v.userId === userId && v.deviceId === deviceId) this.access.delete(k);
    for (const [k, v] of this.refresh)
      if (v.userId === userId && v.deviceId === deviceId) this.refresh.delete(k);
  }

  /** Marks access tokens as expired (all, or one user's) so the next request soft-logs out. */
  expireAll(userId?: string): void {
    for (const entry of this.access.values()) {
      if (userId === undefined || entry.userId === userId) entry.forcedExpired = true;
    }
  }

  /** A single-use m.login.token. */
  issueLoginToken(userId: string): { token: string; expiresInMs: number } {
    const token = this.ctx.ids.token("syl");
    dropExpired(this.login, this.ctx.clock.now());
    this.login.set(token, { userId, expiresAt: this.ctx.clock.now() + LOGIN_TOKEN_LIFETIME_MS });
    return { token, expiresInMs: LOGIN_TOKEN_LIFETIME_MS };
  }

  /** Spends a login token; the user it was issued for, or undefined. */
  consumeLoginToken(token: string): string | undefined {
    const entry = this.login.get(token);
    if (!entry) return undefined;
    this.login.delete(token);
    return entry.expiresAt > this.ctx.clock.now() ? entry.userId : undefined;
  }

  /** An OpenID token for third parties (widgets) to check through the federation userinfo endpoint. */
  issueOpenId(userId: string): { token: string; expiresInSec: number } {
    const token = this.ctx.ids.randomString(24);
    dropExpired(this.openid, this.ctx.clock.now());
    this.openid.set(token, { userId, expiresAt: this.ctx.clock.now() + OPENID_TOKEN_LIFETIME_MS });
    return { token, expiresInSec: OPENID_TOKEN_LIFETIME_MS / 1000 };
  }

  /** The user an OpenID token belongs to while it is valid. */
  openIdUser(token: string): string | undefined {
    const entry = this.openid.get(token);
    if (!entry || entry.expiresAt <= this.ctx.clock.now()) return undefined;
    return entry.userId;
  }
}

/** Forgets short-lived tokens past their expiry, so a long demo run does not keep them all. */
function dropExpired(tokens: Map<string, ShortLivedToken>, now: number): void {
  for (const [token, entry] of tokens) if (entry.expiresAt <= now) tokens.delete(token);
}
