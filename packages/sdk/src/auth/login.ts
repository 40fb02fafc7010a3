/**
 * Signing in and out with the homeserver's login API, turning answers into
 * SessionData for the Session: the login flows, m.login.password with a user
 * id or a 3PID identifier, m.login.token, the SSO redirect URL and its
 * return (loginToken in the redirect URL's query), login/get_token through
 * interactive auth, and logout (this device or all). Every login asks for a
 * refresh token; a login with the device id of a soft-logged-out session
 * resumes that session.
 */
import * as api from "../api/login";
import type { SsoRedirectOptions } from "../api/login";
import type {
  LoginFlowsResponse,
  LoginRequest,
  LoginResponse,
  LoginTokenResponse,
  UserIdentifier,
} from "../api/types/auth";
import { MatrixError } from "../http/errors";
import type { HttpApi } from "../http/types";
import { AuthError } from "./errors";
import { runInteractiveAuth } from "./InteractiveAuth";
import type { InteractiveAuthOptions } from "./InteractiveAuth";
import type { Session } from "./session";
import type { SessionData } from "./storage";

/** Who signs in: a user id (or localpart), or a 3PID. */
export type LoginIdentity =
  { userId: string } | { medium: "email" | "msisdn"; address: string } | { identifier: UserIdentifier };

/** Options every login takes. */
export interface LoginOptions {
  /** Reuse this device (e.g. after a soft logout) instead of creating one. */
  deviceId?: string;
  initialDeviceDisplayName?: string;
  /** Clock for the token's expiry; defaults to Date.now. */
  now?: () => number;
}

/** The user identifier of a LoginIdentity. */
export function identifierOf(who: LoginIdentity): UserIdentifier {
  if ("identifier" in who) return who.identifier;
  if ("userId" in who) return { type: "m.id.user", user: who.userId };
  return { type: "m.id.thirdparty", medium: who.medium, address: who.address };
}

/** A login (or registration) answer as SessionData. */
export function sessionDataFrom(
  res: Pick<
    LoginResponse,
    "user_id" | "device_id" | "access_token" | "refresh_token" | "expires_in_ms" | "well_known"
  >,
  homeserverUrl: string,
  now: () => number = Date.now,
  extra: Partial<SessionData> = {},
): SessionData {
  if (
    typeof res.user_id !== "string" ||
    typeof res.access_token !== "string" ||
    typeof res.device_id !== "string"
  ) {
    throw new AuthError("BAD_RESPONSE", "The login answer lacks user_id, access_token or device_id");
  }
  const data: SessionData = {
    homeserverUrl,
    userId: res.user_id,
    deviceId: res.device_id,
    accessToken: res.access_token,
    ...extra,
  };
  if (typeof res.refresh_token === "string") data.refreshToken = res.refresh_token;
  if (typeof res.expires_in_ms === "number" && Number.isFinite(res.expires_in_ms)) {
    data.expiresAt = now() + res.expires_in_ms;
  }
  const idServer = res.well_known?.["m.identity_server"]?.base_url;
  if (typeof idServer === "string") data.identityServerUrl = idServer;
  return data;
}

/** The homeserver URL an HttpApi talks to, when it tells (the HttpClient does). */
export function homeserverUrlOf(http: HttpApi): string {
  const url = (http as { baseUrl?: unknown }).baseUrl;
  if (typeof url !== "string")
    throw new AuthError("BAD_RESPONSE", "This HttpApi has no baseUrl: pass an HttpClient");
  return url;
}

async function doLogin(http: HttpApi, body: LoginRequest, options: LoginOptions): Promise<SessionData> {
  body.refresh_token = true;
  if (options.deviceId !== undefined) body.device_id = options.deviceId;
  if (options.initialDeviceDisplayName !== undefined) {
    body.initial_device_display_name = options.initialDeviceDisplayName;
  }
  const res = await api.login(http, body);
  return sessionDataFrom(res, homeserverUrlOf(http), options.now);
}

/** GET /login: the login types the server offers. */
export function getLoginFlows(http: HttpApi): Promise<LoginFlowsResponse> {
  return api.getLoginFlows(http);
}

/** m.login.password with a user id or a 3PID. */
export function loginWithPassword(
  http: HttpApi,
  who: LoginIdentity,
  password: string,
  options: LoginOptions = {},
): Promise<SessionData> {
  return doLogin(http, { type: "m.login.password", identifier: identifierOf(who), password }, options);
}

/** m.login.token (from SSO or from another device's get_token). */
export function loginWithToken(
  http: HttpApi,
  token: string,
  options: LoginOptions = {},
): Promise<SessionData> {
  return doLogin(http, { type: "m.login.token", token }, options);
}

/** The URL to send the browser to for SSO; it comes back to `redirectUrl` with ?loginToken=... */
export function ssoLoginUrl(
  homeserverUrl: string,
  redirectUrl: string,
  options: SsoRedirectOptions = {},
): string {
  return api.ssoRedirectUrl(homeserverUrl, redirectUrl, options);
}

/** The loginToken of an SSO return URL, or undefined when it has none. */
export function loginTokenFromUrl(returnUrl: string): string | undefined {
  try {
    return new URL(returnUrl).searchParams.get("loginToken") ?? undefined;
  } catch {
    return undefined;
  }
}

/** Completes SSO: the loginToken in the URL the browser came back to, traded with m.login.token. */
export function completeSsoLogin(
  http: HttpApi,
  returnUrl: string,
  options: LoginOptions = {},
): Promise<SessionData> {
  const token = loginTokenFromUrl(returnUrl);
  if (token === undefined) {
    return Promise.reject(new AuthError("MISSING_LOGIN_TOKEN", "The SSO return URL has no loginToken"));
  }
  return loginWithToken(http, token, options);
}

/** POST /login/get_token through interactive auth: a token another device can sign in with. */
export function getLoginToken(
  http: HttpApi,
  uia: Omit<InteractiveAuthOptions<LoginTokenResponse>, "request"> = {},
): Promise<LoginTokenResponse> {
  return runInteractiveAuth({ ...uia, request: (auth) => api.getLoginToken(http, auth) });
}

/** Whether an error means the token is already gone (signing out is then done anyway). */
function alreadySignedOut(err: unknown): boolean {
  return err instanceof MatrixError && err.errcode === "M_UNKNOWN_TOKEN";
}

/**
 * POST /logout, then clears the session (also when the server no longer
 * knew the token). A session signed in through OIDC is ended at its
 * provider instead: the refresh and access tokens are revoked there (the
 * OIDC code is loaded on first use).
 */
export async function signOut(http: HttpApi, session: Session): Promise<void> {
  const oidc = session.oidc;
  if (oidc !== undefined) {
    const { discoverProvider, revokeSession } = await import("./oidc/index");
    const accessToken = session.getAccessToken();
    const refreshToken = session.getRefreshToken();
    const metadata = await discoverProvider(oidc.issuer);
    await revokeSession(
      { metadata, clientId: oidc.clientId },
      {
        ...(accessToken !== undefined ? { accessToken } : {}),
        ...(refreshToken !== undefined ? { refreshToken } : {}),
      },
    );
    await session.clear("logout");
    return;
  }
  try {
    if (session.getAccessToken() !== undefined) await api.logout(http);
  } catch (err) {
    if (!alreadySignedOut(err)) throw err;
  }
  await session.clear("logout");
}

/** POST /logout/all, then clears the session. */
export async function signOutEverywhere(http: HttpApi, session: Session): Promise<void> {
  try {
    await api.logoutAll(http);
  } catch (err) {
    if (!alreadySignedOut(err)) throw err;
  }
  await session.clear("logout");
}
