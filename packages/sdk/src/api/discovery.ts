/**
 * Homeserver discovery from a user id or server name, following the Matrix
 * spec's "Well-known URIs" client discovery: GET
 * https://{hostname}/.well-known/matrix/client without auth, then check the
 * advertised homeserver with GET /_matrix/client/versions and the identity
 * server, if any, with GET /_matrix/identity/v2. Each step ends in one of the
 * spec's outcomes: IGNORE (no well-known: use what the user typed),
 * FAIL_PROMPT (unusable well-known: ask the user), FAIL_ERROR (it names a
 * server that does not work: stop). The result is data, never a throw, so a
 * login screen can show it; messages are SPEC.md's.
 */
import type { HttpApi } from "../http/types";
import { Prefix } from "../http/types";
import { ApiError, BAD_IDENTITY_RESPONSE_MESSAGE } from "./errors";
import type { ClientWellKnown } from "./types/discovery";
import type { VersionsResponse } from "./types/server";

/** The spec's outcomes, plus SUCCESS, and PROMPT for "not advertised: ask or use a default". */
export type DiscoveryState = "SUCCESS" | "PROMPT" | "IGNORE" | "FAIL_PROMPT" | "FAIL_ERROR";

/** Why a step did not succeed, for logs and finer UI than the message. */
export type DiscoveryReason =
  "NO_WELL_KNOWN" | "INVALID_WELL_KNOWN" | "MISSING_BASE_URL" | "INVALID_BASE_URL" | "SERVER_CHECK_FAILED";

export const ERROR_INVALID_HOMESERVER = "Invalid homeserver discovery response";
export const ERROR_MISSING_WELL_KNOWN = "No .well-known JSON file found";
/** 'Unsupported identity server: bad response' (SPEC §8), defined once in ./errors. */
export const ERROR_INVALID_IDENTITY_SERVER = BAD_IDENTITY_RESPONSE_MESSAGE;

/** What discovery found out about one server. */
export interface DiscoveredServer {
  state: DiscoveryState;
  /** The validated base URL, without a trailing slash; null unless SUCCESS. */
  baseUrl: string | null;
  /** SPEC.md's message; null on SUCCESS and PROMPT. */
  error: string | null;
  reason?: DiscoveryReason;
  /** What was thrown by the failing request, if any. */
  cause?: unknown;
}

/** The result of `discoverHomeserver`. */
export interface DiscoveryResult {
  /** The overall outcome: the homeserver's, or FAIL_* when the identity server failed. */
  state: DiscoveryState;
  homeserver: DiscoveredServer & { versions?: VersionsResponse };
  identityServer: DiscoveredServer;
  /** The well-known document as served, for its other keys; null when there was none. */
  wellKnown: ClientWellKnown | null;
}

/** Options of the discovery requests. */
export interface DiscoveryOptions {
  /** Per-request time-out in ms. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * The origin whose well-known to read: https://{hostname} of a user id's or
 * server name's server name (the port dropped, as the spec says), or an
 * explicit http(s) URL's origin, as given (loopback tests, local servers).
 */
export function wellKnownOrigin(target: string): string {
  if (/^https?:\/\//i.test(target)) {
    try {
      return new URL(target).origin;
    } catch (err) {
      throw new ApiError("INVALID_ARGUMENT", `Invalid server name: ${target.slice(0, 200)}`, { cause: err });
    }
  }
  const serverName = target.startsWith("@") ? target.slice(target.indexOf(":") + 1) : target;
  const hostname = serverName.replace(/:\d{1,5}$/, "");
  const valid =
    target.startsWith("@") && !target.includes(":")
      ? false
      : /^(?:\[[0-9A-Fa-f:.]{2,45}\]|[0-9A-Za-z.-]{1,255})$/.test(hostname);
  if (!valid) throw new ApiError("INVALID_ARGUMENT", `Invalid server name: ${target.slice(0, 200)}`);
  return `https://${hostname.toLowerCase()}`;
}

/** The HTTP status of a failed request, if the error carries one. */
function statusOf(err: unknown): number | undefined {
  const status: unknown =
    typeof err === "object" && err !== null ? (err as { httpStatus?: unknown }).httpStatus : undefined;
  return typeof status === "number" ? status : undefined;
}

/** GET /.well-known/matrix/client on `target`'s origin, without auth or retries. */
export function getWellKnown(
  http: HttpApi,
  target: string,
  options: DiscoveryOptions = {},
): Promise<unknown> {
  return http.request<unknown>({
    method: "GET",
    baseUrl: wellKnownOrigin(target),
    prefix: Prefix.None,
    path: "/.well-known/matrix/client",
    authenticated: false,
    retry: false,
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

/** A base URL if `value` is an absolute http(s) URL, without its trailing slash; else null. */
export function parseBaseUrl(value: unknown): string | null {
  if (typeof value !== "string") return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  if (url.search !== "" || url.hash !== "" || url.username !== "" || url.password !== "") return null;
  return `${url.origin}${url.pathname}`.replace(/\/+$/, "");
}

/** GET {baseUrl}/_matrix/client/versions; resolves to the document if it has the versions shape. */
export async function checkHomeserver(
  http: HttpApi,
  baseUrl: string,
  options: DiscoveryOptions = {},
): Promise<VersionsResponse> {
  const res = await http.request<unknown>({
    method: "GET",
    baseUrl,
    prefix: Prefix.None,
    path: "/_matrix/client/versions",
    authenticated: false,
    retry: false,
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const versions: unknown =
    typeof res === "object" && res !== null ? (res as { versions?: unknown }).versions : undefined;
  if (!Array.isArray(versions) || !versions.every((v) => typeof v === "string")) {
    throw new ApiError("UNSUPPORTED_BY_SERVER", ERROR_INVALID_HOMESERVER);
  }
  return res as VersionsResponse;
}

/** GET {baseUrl}/_matrix/identity/v2: resolves when the server answers like an identity server. */
export async function checkIdentityServer(
  http: HttpApi,
  baseUrl: string,
  options: DiscoveryOptions = {},
): Promise<void> {
  const res = await http.request<unknown>({
    method: "GET",
    baseUrl,
    prefix: Prefix.IdentityV2,
    path: "",
    authenticated: false,
    retry: false,
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (typeof res !== "object" || res === null || Array.isArray(res)) {
    throw new ApiError("UNSUPPORTED_BY_SERVER", ERROR_INVALID_IDENTITY_SERVER);
  }
}

function failed(
  state: DiscoveryState,
  error: string,
  reason: DiscoveryReason,
  cause?: unknown,
): DiscoveredServer {
  return { state, baseUrl: null, error, reason, ...(cause !== undefined ? { cause } : {}) };
}

const NOT_ADVERTISED: DiscoveredServer = { state: "PROMPT", baseUrl: null, error: null };

/**
 * Discovers the homeserver (and identity server) for a user id
 * (@alice:example.org), a server name (example.org) or an http(s) URL.
 * Throws only for a target that is not a user id or server name.
 */
export async function discoverHomeserver(
  http: HttpApi,
  target: string,
  options: DiscoveryOptions = {},
): Promise<DiscoveryResult> {
  const homeserverOnly = (
    homeserver: DiscoveredServer,
    wellKnown: ClientWellKnown | null = null,
  ): DiscoveryResult => ({
    state: homeserver.state,
    homeserver,
    identityServer: NOT_ADVERTISED,
    wellKnown,
  });

  let raw: unknown;
  try {
    raw = await getWellKnown(http, target, options);
  } catch (err) {
    if (err instanceof ApiError) throw err;
    if (statusOf(err) === 404) {
      return homeserverOnly(failed("IGNORE", ERROR_MISSING_WELL_KNOWN, "NO_WELL_KNOWN", err));
    }
    return homeserverOnly(failed("FAIL_PROMPT", ERROR_INVALID_HOMESERVER, "INVALID_WELL_KNOWN", err));
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return homeserverOnly(failed("FAIL_PROMPT", ERROR_INVALID_HOMESERVER, "INVALID_WELL_KNOWN"));
  }
  const doc = raw as Record<string, unknown>;
  const hsEntry = Object.hasOwn(doc, "m.homeserver") ? doc["m.homeserver"] : undefined;
  const hsBase: unknown =
    typeof hsEntry === "object" && hsEntry !== null
      ? (hsEntry as { base_url?: unknown }).base_url
      : undefined;
  if (typeof hsBase !== "string" || hsBase === "") {
    return homeserverOnly(failed("FAIL_PROMPT", ERROR_INVALID_HOMESERVER, "MISSING_BASE_URL"));
  }
  const wellKnown = doc as ClientWellKnown;
  const hsUrl = parseBaseUrl(hsBase);
  if (hsUrl === null) {
    return homeserverOnly(failed("FAIL_ERROR", ERROR_INVALID_HOMESERVER, "INVALID_BASE_URL"), wellKnown);
  }
  let versions: VersionsResponse;
  try {
    versions = await checkHomeserver(http, hsUrl, options);
  } catch (err) {
    return homeserverOnly(
      failed("FAIL_ERROR", ERROR_INVALID_HOMESERVER, "SERVER_CHECK_FAILED", err),
      wellKnown,
    );
  }
  const homeserver = { state: "SUCCESS" as const, baseUrl: hsUrl, error: null, versions };

  const identityServer = await discoverIdentityServer(http, doc, options);
  const state =
    identityServer.state === "FAIL_ERROR" || identityServer.state === "FAIL_PROMPT"
      ? identityServer.state
      : "SUCCESS";
  return { state, homeserver, identityServer, wellKnown };
}

/** Step f of the spec: the optional m.identity_server entry. */
async function discoverIdentityServer(
  http: HttpApi,
  doc: Record<string, unknown>,
  options: DiscoveryOptions,
): Promise<DiscoveredServer> {
  if (!Object.hasOwn(doc, "m.identity_server")) return NOT_ADVERTISED;
  const entry = doc["m.identity_server"];
  const base: unknown =
    typeof entry === "object" && entry !== null ? (entry as { base_url?: unknown }).base_url : undefined;
  if (typeof base !== "string" || base === "") {
    return failed("FAIL_PROMPT", ERROR_INVALID_IDENTITY_SERVER, "MISSING_BASE_URL");
  }
  const url = parseBaseUrl(base);
  if (url === null) return failed("FAIL_ERROR", ERROR_INVALID_IDENTITY_SERVER, "INVALID_BASE_URL");
  try {
    await checkIdentityServer(http, url, options);
  } catch (err) {
    return failed("FAIL_ERROR", ERROR_INVALID_IDENTITY_SERVER, "SERVER_CHECK_FAILED", err);
  }
  return { state: "SUCCESS", baseUrl: url, error: null };
}
