/**
 * The identity service API v2 (api/identity/*.yaml), on the identity
 * server's own base URL with its own access token. The homeserver's token is
 * never sent here: without an identity token the request goes out without
 * Authorization. Calls without a base URL are refused locally with 'No
 * identity server base URL set'. The hashed 3PID lookup lives in
 * identity-lookup.ts.
 */
import type { HttpApi, RequestOptions } from "../http/types";
import { Prefix } from "../http/types";
import { ApiError, NO_IDENTITY_SERVER_MESSAGE } from "./errors";
import type {
  HashDetailsResponse,
  IdentityAccountResponse,
  IdentityEmailTokenRequest,
  IdentityMsisdnTokenRequest,
  IdentityRegisterRequest,
  IdentityRegisterResponse,
  IdentitySubmitTokenRequest,
  IdentitySubmitTokenResponse,
  IdentityTokenResponse,
  LookupRequest,
  LookupResponse,
  TermsResponse,
} from "./types/identity";

/** Where and as whom identity calls go. */
export interface IdentityServer {
  /** The identity server's base URL, e.g. https://vector.im. */
  baseUrl?: string;
  /** The identity server access token (from `registerAccount`), sent as bearer. */
  accessToken?: string;
}

/** The request options every identity call shares; throws without a base URL. */
function on(
  server: IdentityServer,
): Pick<RequestOptions, "baseUrl" | "prefix" | "authenticated" | "accessToken"> {
  if (server.baseUrl === undefined || server.baseUrl === "") {
    throw new ApiError("INVALID_ARGUMENT", NO_IDENTITY_SERVER_MESSAGE);
  }
  return {
    baseUrl: server.baseUrl,
    prefix: Prefix.IdentityV2,
    authenticated: server.accessToken !== undefined,
    ...(server.accessToken !== undefined ? { accessToken: server.accessToken } : {}),
  };
}

/** Runs `request` with the shared options, turning a missing base URL into a rejection. */
function call<T>(
  http: HttpApi,
  server: IdentityServer,
  options: Omit<RequestOptions, "baseUrl" | "prefix">,
): Promise<T> {
  try {
    return http.request<T>({ ...options, ...on(server) });
  } catch (err) {
    return Promise.reject(err instanceof Error ? err : new Error(String(err)));
  }
}

/**
 * POST /account/register: trades an OpenID token from the homeserver for an
 * identity server access token. Sent without Authorization.
 */
export function registerAccount(
  http: HttpApi,
  server: IdentityServer,
  openIdToken: IdentityRegisterRequest,
): Promise<IdentityRegisterResponse> {
  return call(
    http,
    { baseUrl: server.baseUrl },
    { method: "POST", path: "/account/register", body: openIdToken },
  );
}

/** GET /account: the Matrix user the identity token belongs to. */
export function getAccount(http: HttpApi, server: IdentityServer): Promise<IdentityAccountResponse> {
  return call(http, server, { method: "GET", path: "/account" });
}

/** POST /validate/email/requestToken: sends a validation email. */
export function requestEmailToken(
  http: HttpApi,
  server: IdentityServer,
  body: IdentityEmailTokenRequest,
): Promise<IdentityTokenResponse> {
  return call(http, server, { method: "POST", path: "/validate/email/requestToken", body });
}

/** POST /validate/msisdn/requestToken: sends a validation SMS. */
export function requestMsisdnToken(
  http: HttpApi,
  server: IdentityServer,
  body: IdentityMsisdnTokenRequest,
): Promise<IdentityTokenResponse> {
  return call(http, server, { method: "POST", path: "/validate/msisdn/requestToken", body });
}

/** POST /validate/email/submitToken: submits the token from the validation email. */
export function submitEmailToken(
  http: HttpApi,
  server: IdentityServer,
  body: IdentitySubmitTokenRequest,
): Promise<IdentitySubmitTokenResponse> {
  return call(http, server, { method: "POST", path: "/validate/email/submitToken", body });
}

/** POST /validate/msisdn/submitToken: submits the code from the SMS. */
export function submitMsisdnToken(
  http: HttpApi,
  server: IdentityServer,
  body: IdentitySubmitTokenRequest,
): Promise<IdentitySubmitTokenResponse> {
  return call(http, server, { method: "POST", path: "/validate/msisdn/submitToken", body });
}

/** POST /account/logout: invalidates the identity server access token. */
export function logoutAccount(http: HttpApi, server: IdentityServer): Promise<Record<string, never>> {
  return call(http, server, { method: "POST", path: "/account/logout", body: {} });
}

/** GET /hash_details: the pepper and hash algorithms for lookups. */
export function getHashDetails(http: HttpApi, server: IdentityServer): Promise<HashDetailsResponse> {
  return call(http, server, { method: "GET", path: "/hash_details" });
}

/** POST /lookup: maps hashed (or plain) addresses to Matrix user ids. */
export function lookup(http: HttpApi, server: IdentityServer, body: LookupRequest): Promise<LookupResponse> {
  return call(http, server, { method: "POST", path: "/lookup", body });
}

/** GET /terms: the identity server's policies. */
export function getTerms(http: HttpApi, server: IdentityServer): Promise<TermsResponse> {
  return call(http, server, { method: "GET", path: "/terms" });
}

/** POST /terms: records that the user accepts the policies at these URLs. */
export function acceptTerms(
  http: HttpApi,
  server: IdentityServer,
  userAccepts: readonly string[],
): Promise<Record<string, never>> {
  return call(http, server, { method: "POST", path: "/terms", body: { user_accepts: [...userAccepts] } });
}
