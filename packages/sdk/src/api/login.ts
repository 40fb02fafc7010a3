/**
 * Signing in and out with the homeserver's own login API: the login flows,
 * POST /login (password with a user or 3pid identifier, or a login token),
 * the SSO redirect URL, login tokens for signing in another device
 * (get_token), access token refresh, and logout. OIDC sign-in lives in the
 * auth layer.
 */
import type { HttpApi } from "../http/types";
import { Prefix } from "../http/types";
import type {
  AuthDict,
  LoginFlowsResponse,
  LoginRequest,
  LoginResponse,
  LoginTokenResponse,
  RefreshResponse,
} from "./types/auth";
import { LOGIN_TOKEN_PREFIX, REFRESH_PREFIX } from "./unstable";

/** The pre-v3 prefix some old servers still serve /refresh under. */
const LEGACY_R0_PREFIX = "/_matrix/client/r0";

/** GET /login: the login types the server offers. */
export function getLoginFlows(http: HttpApi): Promise<LoginFlowsResponse> {
  return http.request<LoginFlowsResponse>({ method: "GET", path: "/login", authenticated: false });
}

/** POST /login with m.login.password (identifier m.id.user or m.id.thirdparty) or m.login.token. */
export function login(http: HttpApi, body: LoginRequest): Promise<LoginResponse> {
  return http.request<LoginResponse>({ method: "POST", path: "/login", body, authenticated: false });
}

/** Options of the SSO redirect URL. */
export interface SsoRedirectOptions {
  /** Send the user straight to this identity provider (from the m.login.sso flow). */
  idpId?: string;
  /** A hint for the server's UI: the user means to sign in or to register. */
  action?: "login" | "register";
}

/**
 * The URL to send the browser to for SSO: /login/sso/redirect[/{idpId}]
 * ?redirectUrl=... on the homeserver. Pure: no request is made.
 */
export function ssoRedirectUrl(
  homeserverUrl: string,
  redirectUrl: string,
  options: SsoRedirectOptions = {},
): string {
  const base = homeserverUrl.replace(/\/+$/, "");
  let path = `${Prefix.ClientV3}/login/sso/redirect`;
  if (options.idpId !== undefined) path += `/${encodeURIComponent(options.idpId)}`;
  let query = `redirectUrl=${encodeURIComponent(redirectUrl)}`;
  if (options.action !== undefined) query += `&action=${encodeURIComponent(options.action)}`;
  return `${base}${path}?${query}`;
}

/**
 * POST /login/get_token (v1; servers from before Matrix 1.7 have it under
 * MSC3882's unstable prefix). May need interactive auth.
 */
export function getLoginToken(http: HttpApi, auth?: AuthDict): Promise<LoginTokenResponse> {
  return http.request<LoginTokenResponse>({
    method: "POST",
    prefix: LOGIN_TOKEN_PREFIX.stable ?? Prefix.ClientV1,
    fallback: [{ prefix: LOGIN_TOKEN_PREFIX.unstable }],
    path: "/login/get_token",
    body: auth === undefined ? {} : { auth },
  });
}

/**
 * POST /refresh: a new access token (and maybe refresh token) for a refresh
 * token. v3, falling back to v1 and r0 where the server does not recognise
 * it. Sent without the (expired) access token.
 */
export function refresh(
  http: HttpApi,
  refreshToken: string,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<RefreshResponse> {
  return http.request<RefreshResponse>({
    method: "POST",
    prefix: REFRESH_PREFIX.stable ?? Prefix.ClientV3,
    fallback: [{ prefix: REFRESH_PREFIX.unstable }, { prefix: LEGACY_R0_PREFIX }],
    path: "/refresh",
    body: { refresh_token: refreshToken },
    authenticated: false,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
  });
}

/** POST /logout: invalidates this access token and its device. */
export async function logout(http: HttpApi): Promise<void> {
  await http.request<unknown>({ method: "POST", path: "/logout", body: {} });
}

/** POST /logout/all: invalidates every access token of the user. */
export async function logoutAll(http: HttpApi): Promise<void> {
  await http.request<unknown>({ method: "POST", path: "/logout/all", body: {} });
}
