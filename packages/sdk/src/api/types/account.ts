/**
 * Wire types of account management: third-party identifiers
 * (administrative_contact.yaml), password change and reset
 * (password_management.yaml), deactivation, whoami, and the token requests
 * that start an email or phone validation (request_*_validation.yaml).
 */
import type { AuthDict } from "./auth";

/** The media a third-party identifier can have. */
export type ThreepidMedium = "email" | "msisdn";

/** A third-party identifier bound to the account. */
export interface ThirdPartyIdentifier {
  medium: ThreepidMedium;
  address: string;
  validated_at: number;
  added_at: number;
}

/** GET /account/3pid */
export interface ThreepidsResponse {
  threepids?: ThirdPartyIdentifier[];
}

/** POST /account/3pid/add body. */
export interface Add3pidRequest {
  client_secret: string;
  sid: string;
  auth?: AuthDict;
}

/** POST /account/3pid/bind body. */
export interface Bind3pidRequest {
  client_secret: string;
  sid: string;
  id_server: string;
  id_access_token: string;
}

/** POST /account/3pid/unbind and /account/3pid/delete body. */
export interface Remove3pidRequest {
  medium: ThreepidMedium;
  address: string;
  id_server?: string;
}

/** Whether the identity server unbound the identifier too. */
export interface IdServerUnbindResponse {
  id_server_unbind_result: "success" | "no-support";
}

/** POST /account/password body. */
export interface ChangePasswordRequest {
  new_password: string;
  logout_devices?: boolean;
  auth?: AuthDict;
}

/** POST /account/deactivate body. */
export interface DeactivateRequest {
  auth?: AuthDict;
  id_server?: string;
  erase?: boolean;
}

/** GET /account/whoami */
export interface WhoamiResponse {
  user_id: string;
  device_id?: string;
  is_guest?: boolean;
}

/** Fields common to email and phone token requests. */
interface TokenRequestBase {
  /** Client-generated secret, unique to this validation session. */
  client_secret: string;
  /** Incremented by the client to ask for a new message; repeats are no-ops. */
  send_attempt: number;
  /** Where the server redirects the user after validation. */
  next_link?: string;
  /** Deprecated by the homeserver validating itself; still accepted. */
  id_server?: string;
  id_access_token?: string;
}

/** Body of an email requestToken call. */
export interface EmailTokenRequest extends TokenRequestBase {
  email: string;
}

/** Body of a phone (msisdn) requestToken call. */
export interface MsisdnTokenRequest extends TokenRequestBase {
  /** Two-letter ISO 3166-1 alpha-2 country code the number is dialled from. */
  country: string;
  phone_number: string;
}

/** Answer of every requestToken call. */
export interface RequestTokenResponse {
  sid: string;
  /** Where to POST the token the user received, when the homeserver validates itself. */
  submit_url?: string;
}
