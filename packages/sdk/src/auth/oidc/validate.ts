/**
 * Checks of what the homeserver and the provider send: their authorization
 * server metadata (the homeserver's auth_metadata and the issuer's
 * openid-configuration, one rule set for both) and the bearer token
 * response. Which failure gives which SPEC.md §8 message is tabled in
 * docs/architecture/0005-oidc.md. Everything here is untrusted JSON:
 * checked field by field, never trusted for its shape.
 *
 * The split of messages:
 * - 'OIDC is misconfigured': the document names the wrong issuer, or an
 *   endpoint we need is missing or not an http(s) URL;
 * - 'Configured OIDC OP does not support required functions': a capability
 *   list does not show what we need (the code response type, the
 *   authorization_code and refresh_token grants, S256 PKCE, the query or
 *   fragment response mode), whether the value is missing, the list is
 *   absent (RFC 8414's defaults apply, and they lack refresh_token and
 *   S256) or the list is not a list of strings.
 */
import { OidcError } from "./errors";
import { isRecord } from "./fetch";
import type { BearerTokenResponse, ValidatedIssuerMetadata } from "./wire-types";

/** An absolute http(s) URL. */
export function isHttpUrl(value: unknown): value is string {
  if (typeof value !== "string") return false;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

function stringArray(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === "string") ? [...value] : undefined;
}

/** RFC 8414 §2's defaults for absent lists. No PKCE list means no PKCE. */
const RFC8414_DEFAULTS = {
  grant_types_supported: ["authorization_code", "implicit"],
  response_modes_supported: ["query", "fragment"],
  code_challenge_methods_supported: [],
} as const;

/** The response modes the sign-in can use (authorize.ts reads the answer from the query or the fragment). */
export const USABLE_RESPONSE_MODES = ["query", "fragment"] as const;

/** Which document is checked: the issuer's must also publish its signing keys. */
export interface MetadataCheck {
  /** The issuer the document must name exactly; any valid URL when absent (the homeserver's own). */
  expectedIssuer?: string;
  /** The document is the issuer's openid-configuration: jwks_uri is required. */
  requireJwks: boolean;
}

/** Metadata after the checks: the fields sign-in relies on, well-formed. */
export type ValidatedServerMetadata = ValidatedIssuerMetadata;

const REQUIRED_ENDPOINTS = ["authorization_endpoint", "token_endpoint", "revocation_endpoint"] as const;
const OPTIONAL_ENDPOINTS = ["registration_endpoint", "userinfo_endpoint"] as const;

/**
 * Validates authorization server metadata: the homeserver's auth_metadata
 * or the issuer's openid-configuration, with the same rules (the file
 * overview says which failure gives which message). Account management
 * fields (account_management_uri, account_management_actions_supported)
 * and prompt_values_supported of the wrong type are dropped rather than
 * refused: they only decide what the app shows.
 */
export function validateServerMetadata(doc: unknown, check: MetadataCheck): ValidatedServerMetadata {
  const misconfigured = (why: string): OidcError => new OidcError("Misconfigured", { cause: new Error(why) });
  const unsupported = (why: string): OidcError => new OidcError("OpSupport", { cause: new Error(why) });
  if (!isRecord(doc)) throw misconfigured("the metadata is not a JSON object");
  const issuer = doc["issuer"];
  if (check.expectedIssuer !== undefined ? issuer !== check.expectedIssuer : !isHttpUrl(issuer)) {
    throw misconfigured(
      `issuer ${JSON.stringify(issuer)} is not ${check.expectedIssuer ?? "an http(s) URL"}`,
    );
  }
  const required: readonly string[] = check.requireJwks
    ? [...REQUIRED_ENDPOINTS, "jwks_uri"]
    : REQUIRED_ENDPOINTS;
  for (const field of required) {
    if (!isHttpUrl(doc[field])) throw misconfigured(`${field} is missing or not an http(s) URL`);
  }
  for (const field of OPTIONAL_ENDPOINTS) {
    if (doc[field] !== undefined && !isHttpUrl(doc[field]))
      throw misconfigured(`${field} is not an http(s) URL`);
  }
  const rawScopes = doc["scopes_supported"];
  if (rawScopes !== undefined && !stringArray(rawScopes))
    throw misconfigured("scopes_supported is not a list of strings");

  const list = (field: keyof typeof RFC8414_DEFAULTS | "response_types_supported"): string[] => {
    const raw = doc[field];
    if (raw === undefined) {
      if (field === "response_types_supported") throw unsupported("response_types_supported is missing");
      return [...RFC8414_DEFAULTS[field]];
    }
    const values = stringArray(raw);
    if (!values) throw unsupported(`${field} is not a list of strings`);
    return values;
  };
  const responseTypes = list("response_types_supported");
  const grants = list("grant_types_supported");
  const modes = list("response_modes_supported");
  const methods = list("code_challenge_methods_supported");
  if (!responseTypes.includes("code")) throw unsupported('response type "code" not supported');
  if (!grants.includes("authorization_code")) throw unsupported("authorization_code grant not supported");
  if (!grants.includes("refresh_token")) throw unsupported("refresh_token grant not supported");
  if (!methods.includes("S256")) throw unsupported("S256 code challenge method not supported");
  const usableModes = modes.filter((m) => (USABLE_RESPONSE_MODES as readonly string[]).includes(m));
  if (usableModes.length === 0)
    throw unsupported("neither the query nor the fragment response mode is supported");

  const out: Record<string, unknown> = {
    ...doc,
    response_types_supported: responseTypes,
    grant_types_supported: grants,
    response_modes_supported: modes,
    code_challenge_methods_supported: methods,
  };
  dropUnless(out, "account_management_uri", isHttpUrl(doc["account_management_uri"]));
  dropUnless(
    out,
    "account_management_actions_supported",
    !!stringArray(doc["account_management_actions_supported"]),
  );
  dropUnless(out, "prompt_values_supported", !!stringArray(doc["prompt_values_supported"]));
  return out as ValidatedServerMetadata;
}

/** Removes `field` from `out` when present and not `ok`. */
function dropUnless(out: Record<string, unknown>, field: string, ok: boolean): void {
  if (out[field] !== undefined && !ok) delete out[field];
}

/**
 * Validates the issuer's openid-configuration (validateServerMetadata with
 * the issuer named by the homeserver and jwks_uri required).
 */
export function validateIssuerMetadata(doc: unknown, expectedIssuer: string): ValidatedIssuerMetadata {
  return validateServerMetadata(doc, { expectedIssuer, requireJwks: true });
}

/**
 * The bearer token response check ('Invalid bearer token response'):
 * token_type "bearer" in any case (RFC 6749 §5.1: case-insensitive), an
 * access token and a refresh token as non-empty strings, and expires_in a
 * positive whole number of seconds (a negative, zero, fractional or
 * non-finite lifetime is refused: zero or less would have the session
 * refresh at once, and again). `previousRefreshToken` stands in for a
 * refresh answer that keeps the old refresh token (RFC 6749 §6 lets the
 * provider not rotate).
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
  if (typeof expiresIn !== "number" || !Number.isSafeInteger(expiresIn) || expiresIn <= 0)
    throw invalid("expires_in is not a positive whole number");
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
