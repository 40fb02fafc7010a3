/**
 * The authorization code flow with PKCE, the only flow supported: building
 * the provider URL the browser is sent to (and storing the sign-in state),
 * then finishing when the browser comes back with the code. State 8
 * characters, nonce 8, code verifier 64, device id 10 (SPEC.md §9, §7).
 */
import { calculatePKCECodeChallenge } from "oauth4webapi";
import { OidcError } from "./errors";
import type { OidcRequestOptions } from "./fetch";
import {
  DEVICE_ID_LENGTH,
  NONCE_LENGTH,
  randomAlphanumeric,
  randomCodeVerifier,
  STATE_LENGTH,
} from "./random";
import type { RandomFn } from "./random";
import { takeSignInState } from "./sign-in-state";
import type { SignInStateStorage } from "./sign-in-state";
import { USABLE_RESPONSE_MODES } from "./validate";
import { exchangeCode } from "./tokens";
import type { IdTokenClaims } from "./tokens";
import type { BearerTokenResponse, ValidatedIssuerMetadata } from "./wire-types";

/**
 * MSC2967 scope tokens: the client API scope and the device scope prefix,
 * unstable and stable (Matrix 1.15). The unstable forms are what providers
 * before 1.15 know; the stable forms are used when the provider lists the
 * stable API scope in scopes_supported.
 */
export const MATRIX_SCOPES = {
  unstable: {
    api: "urn:matrix:org.matrix.msc2967.client:api:*",
    devicePrefix: "urn:matrix:org.matrix.msc2967.client:device:",
  },
  stable: { api: "urn:matrix:client:api:*", devicePrefix: "urn:matrix:client:device:" },
} as const;

/** The login scope: openid, the client API scope and the device scope. */
export function buildLoginScope(deviceId: string, scopesSupported?: readonly string[]): string {
  const form = scopesSupported?.includes(MATRIX_SCOPES.stable.api)
    ? MATRIX_SCOPES.stable
    : MATRIX_SCOPES.unstable;
  return ["openid", form.api, `${form.devicePrefix}${deviceId}`].join(" ");
}

/** What starting a sign-in needs. */
export interface StartAuthorizationParams {
  metadata: ValidatedIssuerMetadata;
  clientId: string;
  homeserverUrl: string;
  identityServerUrl?: string;
  redirectUri: string;
  storage: SignInStateStorage;
  /** e.g. "create" to open the provider's registration page. */
  prompt?: string;
  /** A device id to sign in as; 10 random characters by default. */
  deviceId?: string;
  /**
   * Where the provider puts its answer: the query (the default when
   * offered) or the fragment, which never reaches a server. Must be one the
   * metadata lists, else 'Configured OIDC OP does not support required
   * functions'.
   */
  responseMode?: ResponseMode;
  random?: RandomFn;
  /** Current time in ms since the epoch. */
  now?: () => number;
}

/** The response modes a sign-in can ask for (completeAuthorization reads either). */
export type ResponseMode = (typeof USABLE_RESPONSE_MODES)[number];

/** The mode to ask for: the requested one if offered, else query, else fragment. */
function responseModeFor(
  metadata: ValidatedIssuerMetadata,
  requested: ResponseMode | undefined,
): ResponseMode {
  const offered = metadata.response_modes_supported ?? USABLE_RESPONSE_MODES;
  const mode = requested ?? USABLE_RESPONSE_MODES.find((m) => offered.includes(m));
  if (mode === undefined || !offered.includes(mode)) {
    throw new OidcError("OpSupport", {
      cause: new Error(`response mode ${mode ?? "query or fragment"} is not offered`),
    });
  }
  return mode;
}

/** Where to send the browser, and what was generated for this sign-in. */
export interface AuthorizationRequest {
  url: string;
  state: string;
  deviceId: string;
  scope: string;
}

/** Generates the sign-in randoms, stores the sign-in state and builds the authorization URL. */
export async function startAuthorization(params: StartAuthorizationParams): Promise<AuthorizationRequest> {
  const random = params.random;
  const now = params.now ?? Date.now;
  const responseMode = responseModeFor(params.metadata, params.responseMode);
  const state = randomAlphanumeric(STATE_LENGTH, random);
  const nonce = randomAlphanumeric(NONCE_LENGTH, random);
  const codeVerifier = randomCodeVerifier(random);
  const deviceId = params.deviceId ?? randomAlphanumeric(DEVICE_ID_LENGTH, random);
  const scope = buildLoginScope(deviceId, params.metadata.scopes_supported);

  const url = new URL(params.metadata.authorization_endpoint);
  const query: Record<string, string> = {
    response_type: "code",
    response_mode: responseMode,
    client_id: params.clientId,
    redirect_uri: params.redirectUri,
    scope,
    state,
    nonce,
    code_challenge: await calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: "S256",
    ...(params.prompt !== undefined ? { prompt: params.prompt } : {}),
  };
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);

  await params.storage.set(state, {
    homeserverUrl: params.homeserverUrl,
    nonce,
    ...(params.identityServerUrl !== undefined ? { identityServerUrl: params.identityServerUrl } : {}),
    codeVerifier,
    redirectUri: params.redirectUri,
    clientId: params.clientId,
    issuer: params.metadata.issuer,
    deviceId,
    createdAt: now(),
  });
  return { url: url.toString(), state, deviceId, scope };
}

/** What finishing a sign-in needs. */
export interface CompleteAuthorizationParams extends OidcRequestOptions {
  metadata: ValidatedIssuerMetadata;
  storage: SignInStateStorage;
  /** The URL the provider redirected the browser to (or just its query parameters). */
  callback: string | URL | URLSearchParams;
  now?: () => number;
}

/** A finished sign-in. */
export interface OidcSignInResult {
  homeserverUrl: string;
  identityServerUrl?: string;
  issuer: string;
  clientId: string;
  deviceId: string;
  tokens: BearerTokenResponse;
  /** When the access token expires, in ms since the epoch. */
  expiresAt: number;
  idTokenClaims: IdTokenClaims;
}

function callbackParams(callback: string | URL | URLSearchParams): URLSearchParams {
  if (callback instanceof URLSearchParams) return callback;
  const url = new URL(callback);
  // response_mode=fragment puts the answer after '#'.
  return url.search === "" && url.hash !== "" ? new URLSearchParams(url.hash.slice(1)) : url.searchParams;
}

/**
 * Finishes a sign-in: finds the stored state for the answer's `state`
 * (missing or older than 900 s: 'State required to finish logging in is not
 * found in storage'), then exchanges the code and checks the tokens.
 */
export async function completeAuthorization(params: CompleteAuthorizationParams): Promise<OidcSignInResult> {
  const now = params.now ?? Date.now;
  const query = callbackParams(params.callback);
  const state = query.get("state");
  if (state === null || state === "") {
    throw new OidcError("MissingOrInvalidStoredState", { cause: new Error("the answer carries no state") });
  }
  const stored = await takeSignInState(params.storage, state, now());
  if (stored.issuer !== params.metadata.issuer) {
    throw new OidcError("Misconfigured", {
      cause: new Error(`sign-in started with ${stored.issuer}, finishing with ${params.metadata.issuer}`),
    });
  }
  const exchanged = await exchangeCode({
    metadata: params.metadata,
    clientId: stored.clientId,
    callbackParams: query,
    state,
    codeVerifier: stored.codeVerifier,
    redirectUri: stored.redirectUri,
    nonce: stored.nonce,
    now: now(),
    ...(params.fetch ? { fetch: params.fetch } : {}),
    ...(params.signal ? { signal: params.signal } : {}),
  });
  return {
    homeserverUrl: stored.homeserverUrl,
    ...(stored.identityServerUrl !== undefined ? { identityServerUrl: stored.identityServerUrl } : {}),
    issuer: stored.issuer,
    clientId: stored.clientId,
    deviceId: stored.deviceId,
    tokens: exchanged.tokens,
    expiresAt: now() + exchanged.tokens.expires_in * 1000,
    idTokenClaims: exchanged.idTokenClaims,
  };
}
