/**
 * Wire types describing what the homeserver supports: the versions document
 * (versions.yaml), capabilities (capabilities.yaml), plus the OpenID token
 * (openid.yaml, definitions/openid_token.yaml) and TURN credentials
 * (voip.yaml) that the server hands out.
 */

/** GET /_matrix/client/versions */
export interface VersionsResponse {
  versions: string[];
  unstable_features?: Record<string, boolean>;
}

/** A capability that is simply on or off. */
export interface BooleanCapability {
  enabled: boolean;
}

/** m.profile_fields: which profile keys the user may change. */
export interface ProfileFieldsCapability {
  enabled: boolean;
  allowed?: string[];
  disallowed?: string[];
}

/** m.room_versions: the default room version and the stability of each. */
export interface RoomVersionsCapability {
  default: string;
  available: Record<string, "stable" | "unstable">;
}

/** The capabilities object; unknown keys are kept. */
export interface Capabilities {
  "m.change_password"?: BooleanCapability;
  "m.room_versions"?: RoomVersionsCapability;
  "m.set_displayname"?: BooleanCapability;
  "m.set_avatar_url"?: BooleanCapability;
  "m.3pid_changes"?: BooleanCapability;
  "m.get_login_token"?: BooleanCapability;
  "m.forget_forced_upon_leave"?: BooleanCapability;
  "m.profile_fields"?: ProfileFieldsCapability;
  "m.account_moderation"?: { suspend?: boolean; lock?: boolean };
  [key: string]: unknown;
}

/** GET /capabilities */
export interface CapabilitiesResponse {
  capabilities: Capabilities;
}

/** POST /user/{userId}/openid/request_token */
export interface OpenIdToken {
  access_token: string;
  token_type: string;
  matrix_server_name: string;
  expires_in: number;
}

/** GET /voip/turnServer */
export interface TurnServerResponse {
  username: string;
  password: string;
  uris: string[];
  /** Seconds the credentials stay valid. */
  ttl: number;
}
