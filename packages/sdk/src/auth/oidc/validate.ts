/**
 * Checks of what the provider sends: its metadata (which failure gives
 * which SPEC.md §8 message is tabled in docs/architecture/0005-oidc.md) and
 * the bearer token response. Everything here is untrusted JSON: checked
 * field by field, never trusted for its shape.
 */
import { OidcError } from "./errors";
import { isRecord } from "./fetch";
import type { BearerTokenResponse, ValidatedIssuerMetadata } from "./wire-types";

function isHttpUrl(value: unknown): value is string {
  if (typeof value !== "string") return false;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

function stringArray(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === "string") ? value : undefined;
}

/**
 * Validates the issuer's openid-configuration.
 *
 * 'OIDC is misconfigured' when the document is not an object, its issuer is
 * not the one the homeserver named, a required endpoint (authorization,
 * token, revocation, jwks) is missing or not an http(s) URL, an optional one
 * (registration, userinfo) is present but not a URL, or
 * response_types_supported (required by RFC 8414) is missing or not a list
 * of strings.
 *
 * 'Configured OIDC OP does not support required functions' when the document
 * is well-formed but the provider cannot do what we need: no "code" response
 * type, no authorization_code grant (an absent grant list means the RFC 8414
 * default, which includes it), or no S256 PKCE (an absent list means no
 * PKCE at all).
 */
export function validateIssuerMetadata(doc: unknown, expectedIssuer: string): ValidatedIssuerMetadata {
  const misconfigured = (why: string): OidcError => new OidcError("Misconfigured", { cause: new Error(why) });
  if (!isRecord(doc)) throw misconfigured("openid-configuration is not a JSON object");
  if (doc["issuer"] !== expectedIssuer) {
    throw misconfigured(`issuer ${JSON.stringify(doc["issuer"])} is not the expected ${expectedIssuer}`);
  }
  for (const field of ["authorization_endpoint", "token_endpoint", "revocation_endpoint", "jwks_uri"]) {
    if (!isHttpUrl(doc[field])) throw misconfigured(`${field} is missing or not a URL`);
  }
  for (const field of ["registration_endpoint", "userinfo_endpoint"]) {
    if (doc[field] !== undefined && !isHttpUrl(doc[field])) throw misconfigured(`${field} is not a URL`);
  }
  const responseTypes = stringArray(doc["response_types_supported"]);
  if (!responseTypes) throw misconfigured("response_types_supported is missing or not a list of strings");
  const rawGrants = doc["grant_types_supported"];
  const grants = rawGrants === undefined ? ["authorization_code", "implicit"] : stringArray(rawGrants);
  if (!grants) throw misconfigured("grant_types_supported is not a list of strings");
  const rawMethods = doc["code_challenge_methods_supported"];
  const methods = rawMethods === undefined ? [] : stringArray(rawMethods);
  if (!methods) throw misconfigured("code_challenge_methods_supported is not a list of strings");
  const rawScopes = doc["scopes_supported"];
  if (rawScopes !== undefined && !stringArray(rawScopes))
    throw misconfigured("scopes_supported is not a list of strings");

  const unsupported = (why: string): OidcError => new OidcError("OpSupport", { cause: new Error(why) });
  if (!responseTypes.includes("code")) throw unsupported('response type "code" not supported');
  if (!grants.includes("authorization_code")) throw unsupported("authorization_code grant not supported");
  if (!methods.includes("S256")) throw unsupported("S256 code challenge method not supported");

  return {
    ...doc,
    response_types_supported: responseTypes,
    grant_types_supported: grants,
    code_challenge_methods_supported: methods,
  } as ValidatedIssuerMetadata;
}

/**
 * The bearer token response check ('Invalid bearer token response'):
 * token_type "bearer" in any case (RFC 6749 §5.1: case-insensitive), an
 * access token and a refresh token as non-empty strings, and a numeric
 * expires_in. `previousRefreshToken` stands in for a refresh answer that
 * keeps the old refresh token (RFC 6749 §6 lets the provider not rotate).
 */
export function validateBearerTokenResponse(
  body: unknown,
  previousRefreshToken?: string,
): BearerTokenResponse {
  const invalid = (why: string): OidcError =>
    new OidcError("InvalidBearerTokenResponse", { cause: new Error(why) });
  if (!isRecord(body)) throw invalid("token response is not a JSON object");
  const tokenType = body["token_type"];
  if (typeof tokenType !== "string" || tokenType.toLowerCase() !== "bearer")
    throw invalid("token_type is not bearer");
  const accessToken = body["access_token"];
  if (typeof accessToken !== "string" || accessToken === "") throw invalid("access_token missing");
  const refreshToken = body["refresh_token"] ?? previousRefreshToken;
  if (typeof refreshToken !== "string" || refreshToken === "") throw invalid("refresh_token missing");
  const expiresIn = body["expires_in"];
  if (typeof expiresIn !== "number" || !Number.isFinite(expiresIn))
    throw invalid("expires_in is not a number");
  const idToken = body["id_token"];
  if (idToken !== undefined && typeof idToken !== "string") throw invalid("id_token is not a string");
  const scope = body["scope"];
  if (scope !== undefined && typeof scope !== "string") throw invalid("scope is not a string");
  return {
    token_type: tokenType,
    access_token: accessToken,
    refresh_token: refreshToken,
    expires_in: expiresIn,
    ...(idToken !== undefined ? { id_token: idToken } : {}),
    ...(scope !== undefined ? { scope } : {}),
  };
}
