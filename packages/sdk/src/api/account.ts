/**
 * Account management: third-party identifiers (list, add, bind, unbind,
 * delete), password change, deactivation, whoami, and the six requestToken
 * calls that start an email or phone validation for registration, for
 * adding a 3pid, or for resetting a password. Calls that may need
 * interactive auth take an `auth` dictionary and pass it through; the 401
 * answer reaches the caller as a MatrixError whose data is an AuthResponse.
 */
import type { HttpApi } from "../http/types";
import type {
  Add3pidRequest,
  Bind3pidRequest,
  ChangePasswordRequest,
  DeactivateRequest,
  EmailTokenRequest,
  IdServerUnbindResponse,
  MsisdnTokenRequest,
  Remove3pidRequest,
  RequestTokenResponse,
  ThreepidsResponse,
  WhoamiResponse,
} from "./types/account";

/** GET /account/3pid */
export function getThreepids(http: HttpApi): Promise<ThreepidsResponse> {
  return http.request<ThreepidsResponse>({ method: "GET", path: "/account/3pid" });
}

/** POST /account/3pid/add: adds a validated 3pid to the account (may need interactive auth). */
export async function addThreepid(http: HttpApi, body: Add3pidRequest): Promise<void> {
  await http.request<unknown>({ method: "POST", path: "/account/3pid/add", body });
}

/** POST /account/3pid/bind: binds a validated 3pid on an identity server. */
export async function bindThreepid(http: HttpApi, body: Bind3pidRequest): Promise<void> {
  await http.request<unknown>({ method: "POST", path: "/account/3pid/bind", body });
}

/** POST /account/3pid/unbind: unbinds a 3pid from an identity server, keeping it on the account. */
export function unbindThreepid(http: HttpApi, body: Remove3pidRequest): Promise<IdServerUnbindResponse> {
  return http.request<IdServerUnbindResponse>({ method: "POST", path: "/account/3pid/unbind", body });
}

/** POST /account/3pid/delete: removes a 3pid from the account. */
export function deleteThreepid(http: HttpApi, body: Remove3pidRequest): Promise<IdServerUnbindResponse> {
  return http.request<IdServerUnbindResponse>({ method: "POST", path: "/account/3pid/delete", body });
}

/**
 * POST /account/password. Without an access token (a password reset after
 * email validation) pass `authenticated: false` and an m.login.email.identity auth.
 */
export async function changePassword(
  http: HttpApi,
  body: ChangePasswordRequest,
  options: { authenticated?: boolean } = {},
): Promise<void> {
  await http.request<unknown>({
    method: "POST",
    path: "/account/password",
    body,
    authenticated: options.authenticated ?? true,
  });
}

/** POST /account/deactivate: auth, erase. */
export function deactivateAccount(http: HttpApi, body: DeactivateRequest): Promise<IdServerUnbindResponse> {
  return http.request<IdServerUnbindResponse>({ method: "POST", path: "/account/deactivate", body });
}

/** GET /account/whoami */
export function whoami(http: HttpApi): Promise<WhoamiResponse> {
  return http.request<WhoamiResponse>({ method: "GET", path: "/account/whoami" });
}

function requestToken(
  http: HttpApi,
  path: string,
  body: EmailTokenRequest | MsisdnTokenRequest,
  authenticated: boolean,
): Promise<RequestTokenResponse> {
  return http.request<RequestTokenResponse>({ method: "POST", path, body, authenticated });
}

/** POST /register/email/requestToken: validate an email address before registering with it. */
export function requestRegisterEmailToken(
  http: HttpApi,
  body: EmailTokenRequest,
): Promise<RequestTokenResponse> {
  return requestToken(http, "/register/email/requestToken", body, false);
}

/** POST /register/msisdn/requestToken: validate a phone number before registering with it. */
export function requestRegisterMsisdnToken(
  http: HttpApi,
  body: MsisdnTokenRequest,
): Promise<RequestTokenResponse> {
  return requestToken(http, "/register/msisdn/requestToken", body, false);
}

/** POST /account/3pid/email/requestToken: validate an email address to add to the account. */
export function requestAdd3pidEmailToken(
  http: HttpApi,
  body: EmailTokenRequest,
): Promise<RequestTokenResponse> {
  return requestToken(http, "/account/3pid/email/requestToken", body, true);
}

/** POST /account/3pid/msisdn/requestToken: validate a phone number to add to the account. */
export function requestAdd3pidMsisdnToken(
  http: HttpApi,
  body: MsisdnTokenRequest,
): Promise<RequestTokenResponse> {
  return requestToken(http, "/account/3pid/msisdn/requestToken", body, true);
}

/** POST /account/password/email/requestToken: start a password reset by email (no access token). */
export function requestPasswordEmailToken(
  http: HttpApi,
  body: EmailTokenRequest,
): Promise<RequestTokenResponse> {
  return requestToken(http, "/account/password/email/requestToken", body, false);
}

/** POST /account/password/msisdn/requestToken: start a password reset by phone (no access token). */
export function requestPasswordMsisdnToken(
  http: HttpApi,
  body: MsisdnTokenRequest,
): Promise<RequestTokenResponse> {
  return requestToken(http, "/account/password/msisdn/requestToken", body, false);
}
