/**
 * The code exchange (authorization code grant with PKCE) and the checks of
 * its answer: the bearer token response (validate.ts), then the ID token
 * through oauth4webapi (issuer, audience, nonce, expiry, issued-at) and its
 * signature against the issuer's JWKS.
 */
import {
  authorizationCodeGrantRequest,
  clockSkew,
  getValidatedIdTokenClaims,
  None,
  processAuthorizationCodeResponse,
  validateApplicationLevelSignature,
  validateAuthResponse,
} from "oauth4webapi";
import type { AuthorizationServer, Client, IDToken } from "oauth4webapi";
import { OidcError } from "./errors";
import { oauthHttpOptions, readJson } from "./fetch";
import type { OidcRequestOptions } from "./fetch";
import { validateBearerTokenResponse } from "./validate";
import type { BearerTokenResponse, ValidatedIssuerMetadata } from "./wire-types";

/** The validated claims of an ID token (iss, sub, aud, exp, iat, nonce, ...). */
export type IdTokenClaims = IDToken;

/**
 * The oauth4webapi client for `clientId`, its clock moved to `now` (ms), so
 * the ID token's time checks follow the injected clock rather than the
 * machine's.
 */
export function oauthClient(clientId: string, now: number): Client {
  const skewSeconds = Math.round((now - Date.now()) / 1000);
  return { client_id: clientId, ...(skewSeconds !== 0 ? { [clockSkew]: skewSeconds } : {}) };
}

/** What a code exchange needs. */
export interface ExchangeCodeParams extends OidcRequestOptions {
  metadata: ValidatedIssuerMetadata;
  clientId: string;
  /** The query (or fragment) parameters the provider redirected back with. */
  callbackParams: URLSearchParams;
  /** The state we sent; the answer must carry it. */
  state: string;
  codeVerifier: string;
  redirectUri: string;
  /** The nonce we sent; the ID token must carry it. */
  nonce: string;
  /** Current time in ms since the epoch. */
  now: number;
}

/** The code exchange's result: checked tokens and the ID token's claims. */
export interface ExchangeCodeResult {
  tokens: BearerTokenResponse;
  idTokenClaims: IdTokenClaims;
}

/**
 * Exchanges the authorization code for tokens. An error in the redirect
 * (e.g. access_denied), no answer or an error answer from the token
 * endpoint: 'Failed to exchange code for token'. A 2xx answer that is not a
 * bearer token response: 'Invalid bearer token response'. An ID token that
 * is missing or fails a check (issuer, audience, nonce, exp, signature):
 * 'Invalid ID token'.
 */
export async function exchangeCode(params: ExchangeCodeParams): Promise<ExchangeCodeResult> {
  const as = params.metadata as AuthorizationServer;
  const client = oauthClient(params.clientId, params.now);
  let response: Response;
  try {
    const validated = validateAuthResponse(as, client, params.callbackParams, params.state);
    response = await authorizationCodeGrantRequest(
      as,
      client,
      None(),
      validated,
      params.redirectUri,
      params.codeVerifier,
      oauthHttpOptions(as.token_endpoint ?? "", params, params.signal),
    );
  } catch (err) {
    throw new OidcError("CodeExchangeFailed", { cause: err });
  }
  if (response.status < 200 || response.status > 299) {
    const body = await readJson(response);
    throw new OidcError("CodeExchangeFailed", {
      cause: new Error(`token endpoint answered ${response.status}: ${JSON.stringify(body)}`),
    });
  }
  const tokens = validateBearerTokenResponse(await readJson(response.clone()));
  if (tokens.id_token === undefined) {
    throw new OidcError("InvalidIdToken", { cause: new Error("the token response has no id_token") });
  }
  try {
    const processed = await processAuthorizationCodeResponse(as, client, response, {
      expectedNonce: params.nonce,
      requireIdToken: true,
    });
    await validateApplicationLevelSignature(
      as,
      response,
      oauthHttpOptions(params.metadata.jwks_uri, params, params.signal),
    );
    const claims = getValidatedIdTokenClaims(processed);
    if (!claims) throw new Error("no validated ID token claims");
    return { tokens, idTokenClaims: claims };
  } catch (err) {
    throw new OidcError("InvalidIdToken", { cause: err });
  }
}
