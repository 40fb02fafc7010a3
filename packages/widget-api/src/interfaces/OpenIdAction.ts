/** get_openid and openid_credentials: the OpenID flow (SPEC §4). */

/** OpenID request states. */
export const OpenIdRequestState = {
  Allowed: "allowed",
  Blocked: "blocked",
  PendingUserConfirmation: "request",
} as const;

/** One OpenID request state. */
export type OpenIdRequestStateName = (typeof OpenIdRequestState)[keyof typeof OpenIdRequestState];

/** An OpenID token as the homeserver issues it. */
export interface OpenIdCredentials {
  access_token: string;
  expires_in: number;
  matrix_server_name: string;
  token_type: "Bearer";
}

/** get_openid reply, or openid_credentials data (which adds original_request_id). */
export interface OpenIdResponseData extends Partial<OpenIdCredentials> {
  state: OpenIdRequestStateName;
  original_request_id?: string;
}
