/**
 * Errors of OIDC (next-generation) sign-in. Every failure of discovery,
 * registration, authorization, code exchange, refresh, user info and
 * revocation is an OidcError whose message is SPEC.md §8's text where the
 * spec names one; `cause` always keeps the underlying error (an HTTP or
 * oauth4webapi error) for diagnosis. docs/architecture/0005-oidc.md maps
 * each failure to its message.
 */

/** The messages, by code. SPEC.md §8 strings are used exactly. */
export const OidcErrorMessage = {
  /** The homeserver advertises no OpenID provider (auth_metadata and auth_issuer unrecognised). */
  NotSupported: "OIDC authentication not supported",
  /** The homeserver or provider answered, but the metadata is malformed or inconsistent. */
  Misconfigured: "OIDC is misconfigured",
  /** Discovery got no usable answer: network failure, time-out, error status, unreadable body. */
  General: "Something went wrong with OIDC discovery",
  /** Well-formed metadata that lacks the code flow, the authorization_code grant or S256 PKCE. */
  OpSupport: "Configured OIDC OP does not support required functions",
  /** The provider's metadata has no registration_endpoint. */
  DynamicRegistrationNotSupported: "Dynamic client registration is not supported by the OIDC provider",
  /** The registration request got no answer or an error answer. */
  DynamicRegistrationFailed: "Dynamic client registration failed",
  /** The registration answer carries no client_id string. */
  DynamicRegistrationInvalid: "Dynamic client registration response is invalid: no client_id",
  /** The authorization or token endpoint refused, or did not answer, the code exchange. */
  CodeExchangeFailed: "Failed to exchange code for token",
  /** A token answer that is not a bearer token response with the fields we need. */
  InvalidBearerTokenResponse: "Invalid bearer token response",
  /** The ID token failed a check: issuer, audience, nonce, expiry or signature. */
  InvalidIdToken: "Invalid ID token",
  /** No stored sign-in state for this `state`, or it is older than 900 s. */
  MissingOrInvalidStoredState: "State required to finish logging in is not found in storage",
  /** A stored sign-in state record without its homeserverUrl or nonce. */
  StoredStateIncomplete: "Stored state needs homeserverUrl and nonce",
  /** The token endpoint refused, or did not answer, a refresh. */
  RefreshFailed: "Failed to refresh the access token",
  /** The user info endpoint refused or did not answer, or answered something unusable. */
  UserInfoFailed: "Failed to fetch user info",
  /** The revocation endpoint refused or did not answer. */
  RevocationFailed: "Failed to revoke the token",
} as const;

/** Machine-readable reason of an OidcError. */
export type OidcErrorCode = keyof typeof OidcErrorMessage;

/** An OIDC sign-in failure; `message` is fixed per `code`, `cause` keeps the detail. */
export class OidcError extends Error {
  readonly code: OidcErrorCode;
  /** The HTTP status of the provider's answer, when it answered with an error. */
  readonly status: number | undefined;

  constructor(code: OidcErrorCode, options?: { cause?: unknown; status?: number }) {
    super(OidcErrorMessage[code], options?.cause !== undefined ? { cause: options.cause } : undefined);
    this.name = "OidcError";
    this.code = code;
    this.status = options?.status;
  }
}

/** Wraps anything thrown into an OidcError with `code`, keeping OidcErrors as they are. */
export function asOidcError(code: OidcErrorCode, err: unknown): OidcError {
  return err instanceof OidcError ? err : new OidcError(code, { cause: err });
}
