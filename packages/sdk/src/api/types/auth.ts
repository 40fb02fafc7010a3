/**
 * Wire types of interactive user authentication (UIA) and of the login,
 * registration and token endpoints (client-server definitions auth_data.yaml,
 * auth_response.yaml, user_identifier.yaml; login.yaml, registration.yaml,
 * refresh.yaml, login_token.yaml). The auth layer builds its flows on these.
 */

/** Credentials of a validated third-party identifier session (m.login.email.identity, m.login.msisdn). */
export interface ThreepidCreds {
  sid: string;
  client_secret: string;
  id_server?: string;
  id_access_token?: string;
}

/** A user identifier: by Matrix user id. */
export interface UserIdentifierUser {
  type: "m.id.user";
  user: string;
}

/** A user identifier: by third-party id (email, msisdn). */
export interface UserIdentifierThirdParty {
  type: "m.id.thirdparty";
  medium: string;
  address: string;
}

/** A user identifier: by phone number, the server canonicalising it. */
export interface UserIdentifierPhone {
  type: "m.id.phone";
  country: string;
  phone: string;
}

/** Any other identifier type: the spec leaves the set open (user_identifier.yaml). */
export interface UserIdentifierOther {
  type: string;
  [key: string]: unknown;
}

/** Identification of a user (user_identifier.yaml): the three spec types, or an extension. */
export type UserIdentifier =
  UserIdentifierUser | UserIdentifierThirdParty | UserIdentifierPhone | UserIdentifierOther;

/**
 * The `auth` dictionary a client submits to an endpoint protected by
 * interactive authentication. `type` may be omitted when re-issuing a request
 * whose stage was completed out of band (fallback).
 */
export interface AuthDict {
  type?: string;
  session?: string;
  /** m.login.password */
  identifier?: UserIdentifier;
  password?: string;
  /** m.login.email.identity, m.login.msisdn */
  threepid_creds?: ThreepidCreds;
  /** m.login.recaptcha */
  response?: string;
  /** m.login.registration_token */
  token?: string;
  [key: string]: unknown;
}

/** One way through interactive authentication: its stages in order. */
export interface AuthFlow {
  stages: string[];
}

/** The 401 answer of an endpoint that needs (more) interactive authentication. */
export interface AuthResponse {
  flows: AuthFlow[];
  params?: Record<string, Record<string, unknown>>;
  session?: string;
  completed?: string[];
  /** Present when the last submitted stage failed. */
  errcode?: string;
  error?: string;
}

/** An identity provider offered by an m.login.sso flow. */
export interface IdentityProvider {
  id: string;
  name: string;
  icon?: string;
  brand?: string;
}

/** One login type of GET /login. */
export interface LoginFlow {
  type: string;
  /** m.login.token: whether POST /login/get_token may be used. */
  get_login_token?: boolean;
  /** m.login.sso: identity providers to present. */
  identity_providers?: IdentityProvider[];
  oauth_aware_preferred?: boolean;
  [key: string]: unknown;
}

/** GET /login */
export interface LoginFlowsResponse {
  flows: LoginFlow[];
}

/** Fields common to every POST /login request. */
interface LoginRequestBase {
  device_id?: string;
  initial_device_display_name?: string;
  refresh_token?: boolean;
}

/** POST /login with m.login.password. */
export interface PasswordLoginRequest extends LoginRequestBase {
  type: "m.login.password";
  identifier: UserIdentifier;
  password: string;
}

/** POST /login with m.login.token (from SSO or get_token). */
export interface TokenLoginRequest extends LoginRequestBase {
  type: "m.login.token";
  token: string;
}

/** POST /login body. */
export type LoginRequest = PasswordLoginRequest | TokenLoginRequest;

/** Client configuration the server may hand back on login. */
export interface LoginWellKnown {
  "m.homeserver": { base_url: string };
  "m.identity_server"?: { base_url: string };
  [key: string]: unknown;
}

/** POST /login */
export interface LoginResponse {
  user_id: string;
  access_token: string;
  device_id: string;
  refresh_token?: string;
  expires_in_ms?: number;
  /** Deprecated: parse the server name from user_id. */
  home_server?: string;
  well_known?: LoginWellKnown;
}

/** Query `kind` of POST /register. */
export type RegistrationKind = "user" | "guest";

/** POST /register body. */
export interface RegisterRequest {
  auth?: AuthDict;
  username?: string;
  password?: string;
  device_id?: string;
  initial_device_display_name?: string;
  inhibit_login?: boolean;
  refresh_token?: boolean;
}

/** POST /register */
export interface RegisterResponse {
  user_id: string;
  /** Absent when inhibit_login was set. */
  access_token?: string;
  device_id?: string;
  refresh_token?: string;
  expires_in_ms?: number;
  home_server?: string;
}

/** GET /register/available */
export interface UsernameAvailableResponse {
  available: boolean;
}

/** POST /refresh */
export interface RefreshResponse {
  access_token: string;
  refresh_token?: string;
  expires_in_ms?: number;
}

/** POST /login/get_token */
export interface LoginTokenResponse {
  login_token: string;
  expires_in_ms: number;
}
