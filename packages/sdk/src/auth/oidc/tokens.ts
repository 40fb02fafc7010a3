/**
 * The code exchange (authorization code grant with PKCE) and the checks of
 * its answer: the bearer token response (validate.ts), then the ID token
 * through oauth4webapi (issuer, audience, nonce, expiry), then its signature
 * against the issuer's JWKS and its issued-at (verifyIdToken, which refresh
 * uses too).
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
 * How far ahead of our clock an ID token's `iat` may be: 5 minutes, the
 * usual allowance for clocks that drift. A token issued later than that is
 * refused ('Invalid ID token'): it was minted for a future use, or the
 * provider's clock cannot be trusted for `exp` either.
 */
export const ID_TOKEN_CLOCK_SKEW_S = 300;

/**
 * The checks every ID token gets, at sign-in and on refresh alike, after
 * oauth4webapi has processed `response` (issuer, audience, exp, and the
 * nonce at sign-in): its JWS signature against the issuer's JWKS (a `kid`
 * the JWKS does not list, or another key, fails), and `iat` no more than
 * ID_TOKEN_CLOCK_SKEW_S ahead of `now`. Any failure is 'Invalid ID token'.
 */
export async function verifyIdToken(
  as: AuthorizationServer,
  response: Response,
  claims: IDToken | undefined,
  options: OidcRequestOptions & { jwksUri: string; now: number },
): Promise<IDToken> {
  try {
    await validateApplicationLevelSignature(
      as,
      response,
      oauthHttpOptions(options.jwksUri, options, options.signal),
    );
    if (!claims) throw new OidcError("InvalidIdToken", { cause: "no validated ID token claims" });
    const nowS = Math.floor(options.now / 1000);
    if (typeof claims.iat !== "number" || claims.iat > nowS + ID_TOKEN_CLOCK_SKEW_S) {
      throw new OidcError("InvalidIdToken", {
        cause: `iat ${String(claims.iat)} is more than ${ID_TOKEN_CLOCK_SKEW_S} s after now (${nowS})`,
      });
    }
    return claims;
  } catch (err) {
    throw new OidcError("InvalidIdToken", { cause: err });
  }
}

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
  let processed;
  try {
    processed = await processAuthorizationCodeResponse(as, client, response, {
      expectedNonce: params.nonce,
      requireIdToken: true,
    });
  } catch (err) {
    throw new OidcError("InvalidIdToken", { cause: err });
  }
  const claims = await verifyIdToken(as, response, getValidatedIdTokenClaims(processed), {
    ...params,
    jwksUri: params.metadata.jwks_uri,
  });
  return { tokens, idTokenClaims: claims };
}
