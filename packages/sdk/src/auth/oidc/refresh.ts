/**
 * Refreshing the access token at the provider's token endpoint, with
 * SPEC.md §9's 300 s request time-out. A provider that does not rotate
 * refresh tokens may leave refresh_token out: the old one stays valid.
 */
import {
  getValidatedIdTokenClaims,
  None,
  processRefreshTokenResponse,
  refreshTokenGrantRequest,
} from "oauth4webapi";
import type { AuthorizationServer } from "oauth4webapi";
import { OidcError } from "./errors";
import { oauthHttpOptions, readJson, withTimeout } from "./fetch";
import type { OidcRequestOptions } from "./fetch";
import { oauthClient, verifyIdToken } from "./tokens";
import type { IdTokenClaims } from "./tokens";
import { validateBearerTokenResponse } from "./validate";
import type { BearerTokenResponse, ValidatedIssuerMetadata } from "./wire-types";

/** SPEC §9: the refresh request times out after 300 s. */
export const REFRESH_TIMEOUT_MS = 300_000;

/** What a refresh needs. */
export interface RefreshParams extends OidcRequestOptions {
  metadata: ValidatedIssuerMetadata;
  clientId: string;
  refreshToken: string;
  /** Current time in ms since the epoch. */
  now?: () => number;
  /**
   * The sign-in ID token's `sub`: a new ID token must name the same one
   * (OIDC Core 12.2), else 'Invalid ID token'.
   */
  expectedSubject?: string;
}

/** Fresh tokens, and when the new access token expires (ms since the epoch). */
export interface RefreshedTokens {
  tokens: BearerTokenResponse;
  expiresAt: number;
  /** The new ID token's verified claims, when the answer carried one. */
  idTokenClaims?: IdTokenClaims;
}

/**
 * Exchanges the refresh token for new tokens. No answer within 300 s or an
 * error answer: RefreshFailed. A 2xx answer that is not a bearer token
 * response: 'Invalid bearer token response'. An ID token in the answer
 * that fails the sign-in checks (issuer, audience, expiry, JWKS signature,
 * iat, tokens.ts's verifyIdToken): 'Invalid ID token'.
 */
export async function refreshAccessToken(params: RefreshParams): Promise<RefreshedTokens> {
  const now = params.now ?? Date.now;
  const as = params.metadata as AuthorizationServer;
  const client = oauthClient(params.clientId, now());
  return await withTimeout(REFRESH_TIMEOUT_MS, params.signal, async (signal) => {
    let response: Response;
    try {
      response = await refreshTokenGrantRequest(
        as,
        client,
        None(),
        params.refreshToken,
        oauthHttpOptions(params.metadata.token_endpoint, params, signal),
      );
    } catch (err) {
      throw new OidcError("RefreshFailed", { cause: err });
    }
    let body: unknown;
    try {
      body = await readJson(response.clone());
    } catch (err) {
      throw new OidcError("RefreshFailed", { cause: err });
    }
    if (response.status < 200 || response.status > 299) {
      throw new OidcError("RefreshFailed", {
        cause: new Error(`token endpoint answered ${response.status}: ${JSON.stringify(body)}`),
        status: response.status,
      });
    }
    const tokens = validateBearerTokenResponse(body, params.refreshToken);
    let processed;
    try {
      processed = await processRefreshTokenResponse(as, client, response);
    } catch (err) {
      throw new OidcError("InvalidIdToken", { cause: err });
    }
    // A new ID token is checked exactly as at sign-in: signature against the JWKS, unknown kid, iat.
    if (tokens.id_token !== undefined) {
      const idTokenClaims = await verifyIdToken(as, response, getValidatedIdTokenClaims(processed), {
        ...params,
        signal,
        jwksUri: params.metadata.jwks_uri,
        now: now(),
      });
      if (params.expectedSubject !== undefined && idTokenClaims.sub !== params.expectedSubject) {
        throw new OidcError("InvalidIdToken", {
          cause: new Error(
            `the refreshed ID token names ${idTokenClaims.sub}, not ${params.expectedSubject}`,
          ),
        });
      }
      return { tokens, expiresAt: now() + tokens.expires_in * 1000, idTokenClaims };
    }
    return { tokens, expiresAt: now() + tokens.expires_in * 1000 };
  });
}
