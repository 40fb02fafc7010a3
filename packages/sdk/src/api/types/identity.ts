/**
 * Wire types of the identity service API v2 (api/identity/v2_auth.yaml,
 * v2_email_associations.yaml, v2_phone_associations.yaml, v2_lookup.yaml,
 * v2_terms.yaml).
 */

/** POST /account/register body: an OpenID token from the homeserver. */
export interface IdentityRegisterRequest {
  access_token: string;
  token_type: string;
  matrix_server_name: string;
  expires_in: number;
}

/** POST /account/register */
export interface IdentityRegisterResponse {
  /** The identity server access token. */
  token: string;
}

/** GET /account */
export interface IdentityAccountResponse {
  user_id: string;
}

/** POST /validate/email/requestToken body. */
export interface IdentityEmailTokenRequest {
  client_secret: string;
  email: string;
  send_attempt: number;
  next_link?: string;
}

/** POST /validate/msisdn/requestToken body. */
export interface IdentityMsisdnTokenRequest {
  client_secret: string;
  /** Two-letter country code the phone number is from. */
  country: string;
  phone_number: string;
  send_attempt: number;
  next_link?: string;
}

/** The session id of a validation request. */
export interface IdentityTokenResponse {
  sid: string;
}

/** POST /validate/msisdn/submitToken body. */
export interface IdentitySubmitTokenRequest {
  sid: string;
  client_secret: string;
  token: string;
}

/** POST /validate/msisdn/submitToken */
export interface IdentitySubmitTokenResponse {
  success: boolean;
}

/** GET /hash_details */
export interface HashDetailsResponse {
  lookup_pepper: string;
  algorithms: string[];
}

/** POST /lookup body. */
export interface LookupRequest {
  algorithm: string;
  pepper: string;
  addresses: string[];
}

/** POST /lookup: hashed (or plain) address to Matrix user id. */
export interface LookupResponse {
  mappings: Record<string, string>;
}

/** One policy document in one language. */
export interface PolicyTranslation {
  name: string;
  url: string;
}

/** One policy: its version plus a translation per language code. */
export interface Policy {
  version: string;
  [language: string]: PolicyTranslation | string;
}

/** GET /terms */
export interface TermsResponse {
  policies: Record<string, Policy>;
}

/** POST /terms body. */
export interface AcceptTermsRequest {
  user_accepts: string[];
}
