/**
 * Wire types of OIDC sign-in (snake_case, as the provider sends and
 * receives them): the provider metadata we rely on after validation, the
 * dynamic client registration body (SPEC.md §3) and the token response
 * (SPEC.md §3).
 */

/**
 * Provider metadata after validation (validate.ts): the fields sign-in
 * needs are present and well-formed. Other fields are kept as sent.
 */
export interface ValidatedIssuerMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  revocation_endpoint: string;
  jwks_uri: string;
  registration_endpoint?: string;
  userinfo_endpoint?: string;
  response_types_supported: string[];
  grant_types_supported: string[];
  code_challenge_methods_supported: string[];
  /** Absent means RFC 8414's default, query and fragment. */
  response_modes_supported?: string[];
  scopes_supported?: string[];
  /** An http(s) URL; a value of another type is dropped by the checks. */
  account_management_uri?: string;
  /** A list of strings; a value of another type is dropped by the checks. */
  account_management_actions_supported?: string[];
  prompt_values_supported?: string[];
  [key: string]: unknown;
}

/** SPEC §3: the dynamic client registration body (RFC 7591 names). */
export interface ClientRegistrationBody {
  client_name: string;
  client_uri: string;
  response_types: string[];
  grant_types: string[];
  redirect_uris: string[];
  id_token_signed_response_alg: string;
  token_endpoint_auth_method: "none";
  application_type: "web" | "native";
  contacts?: string[];
  logo_uri?: string;
  policy_uri?: string;
  tos_uri?: string;
}

/** SPEC §3: the token response, after the bearer check (validate.ts). */
export interface BearerTokenResponse {
  token_type: string;
  access_token: string;
  refresh_token: string;
  expires_in: number;
  id_token?: string;
  scope?: string;
}
