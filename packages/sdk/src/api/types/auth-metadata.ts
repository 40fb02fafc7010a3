/**
 * Wire types of the homeserver's OAuth 2.0 authorization server metadata
 * (api/client-server/oauth_server_metadata.yaml; RFC 8414 fields).
 */

/** GET /_matrix/client/v1/auth_metadata */
export interface AuthMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  revocation_endpoint: string;
  registration_endpoint: string;
  response_types_supported: string[];
  grant_types_supported: string[];
  response_modes_supported: string[];
  code_challenge_methods_supported: string[];
  prompt_values_supported?: string[];
  account_management_uri?: string;
  account_management_actions_supported?: string[];
  device_authorization_endpoint?: string;
  [key: string]: unknown;
}
