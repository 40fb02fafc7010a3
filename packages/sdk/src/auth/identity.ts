/**
 * IdentityService: the identity server as the signed-in user sees it.
 * Registering trades an OpenID token from the homeserver (POST
 * /user/{userId}/openid/request_token) for an identity server access token
 * (POST /account/register), which is kept here and sent only to the identity
 * server. Then: the terms and their acceptance, hash_details, and 3PID lookup
 * with sha256 (pepper, hashed addresses) or none, email and phone validation
 * (requestToken / submitToken), with the spec's errors:
 * 'No identity server base URL set', 'Unsupported identity server: bad
 * response', 'unknown hash algorithm'.
 */
import { ApiError, BAD_IDENTITY_RESPONSE_MESSAGE, NO_IDENTITY_SERVER_MESSAGE } from "../api/errors";
import * as identity from "../api/identity";
import type { IdentityServer } from "../api/identity";
import { lookupThreepids } from "../api/identity-lookup";
import type { Threepid, ThreepidBinding } from "../api/identity-lookup";
import { requestOpenIdToken } from "../api/openid";
import type { EmailTokenRequest, MsisdnTokenRequest } from "../api/types/account";
import type { HashDetailsResponse } from "../api/types/identity";
import type { HttpApi } from "../http/types";
import { termsPolicies } from "./InteractiveAuth";
import type { TermsPolicy } from "./InteractiveAuth";
import type { RandomFn } from "./secret";
import { ThreepidValidation } from "./threepid";
import type { ValidatedThreepid } from "./threepid";

/** SPEC §8 messages of the identity service (defined once, in api/errors). */
export { BAD_IDENTITY_RESPONSE_MESSAGE, NO_IDENTITY_SERVER_MESSAGE } from "../api/errors";

export interface IdentityServiceOptions {
  /** The homeserver's authenticated HttpApi; identity calls go through it with their own base URL. */
  http: HttpApi;
  userId: string;
  /** The identity server, or a getter (e.g. the Session's identityServerUrl). */
  identityServerUrl?: string | (() => string | undefined);
}

function badResponse(): ApiError {
  return new ApiError("UNSUPPORTED_BY_SERVER", BAD_IDENTITY_RESPONSE_MESSAGE);
}

export class IdentityService {
  private token: string | undefined;

  constructor(private readonly options: IdentityServiceOptions) {}

  /** The identity server's base URL, if one is set. */
  get baseUrl(): string | undefined {
    const url = this.options.identityServerUrl;
    const value = typeof url === "function" ? url() : url;
    return value === "" ? undefined : value;
  }

  /** Whether an identity server access token is held. */
  get registered(): boolean {
    return this.token !== undefined;
  }

  private server(): IdentityServer {
    const baseUrl = this.baseUrl;
    if (baseUrl === undefined) throw new ApiError("INVALID_ARGUMENT", NO_IDENTITY_SERVER_MESSAGE);
    return this.token === undefined ? { baseUrl } : { baseUrl, accessToken: this.token };
  }

  /** Registers with the identity server using an OpenID token from the homeserver. */
  async register(): Promise<void> {
    const server = this.server();
    const openId = await requestOpenIdToken(this.options.http, this.options.userId);
    const res: unknown = await identity.registerAccount(this.options.http, server, openId);
    const token = (res as { token?: unknown; access_token?: unknown } | null)?.token;
    if (typeof token !== "string" || token === "") throw badResponse();
    this.token = token;
  }

  /** GET /account: the user the identity token belongs to. */
  async account(): Promise<string> {
    const res: unknown = await identity.getAccount(this.options.http, this.server());
    const userId = (res as { user_id?: unknown } | null)?.user_id;
    if (typeof userId !== "string") throw badResponse();
    return userId;
  }

  /** GET /terms: the identity server's policies (English names where offered). */
  async terms(): Promise<TermsPolicy[]> {
    const res: unknown = await identity.getTerms(this.options.http, this.server());
    if (typeof res !== "object" || res === null) throw badResponse();
    return termsPolicies(res as Record<string, unknown>);
  }

  /** POST /terms: accepts the policies at these URLs. */
  async acceptTerms(urls: readonly string[]): Promise<void> {
    await identity.acceptTerms(this.options.http, this.server(), urls);
  }

  /** GET /hash_details, checked. */
  async hashDetails(): Promise<HashDetailsResponse> {
    const res: unknown = await identity.getHashDetails(this.options.http, this.server());
    const details = res as { lookup_pepper?: unknown; algorithms?: unknown } | null;
    if (typeof details?.lookup_pepper !== "string" || !Array.isArray(details.algorithms)) throw badResponse();
    return {
      lookup_pepper: details.lookup_pepper,
      algorithms: details.algorithms.filter((a): a is string => typeof a === "string"),
    };
  }

  /** Which Matrix users these 3PIDs are bound to (sha256 preferred, none otherwise). */
  async lookup(threepids: readonly Threepid[]): Promise<ThreepidBinding[]> {
    return lookupThreepids(this.options.http, this.server(), threepids);
  }

  /**
   * Starts validating an email address on the identity server (POST
   * /validate/email/requestToken with client_secret, send_attempt, next_link):
   * call `send()` on the result, and again to resend.
   */
  emailValidation(
    email: string,
    options: { nextLink?: string; random?: RandomFn } = {},
  ): ThreepidValidation<EmailTokenRequest> {
    return new ThreepidValidation<EmailTokenRequest>(
      (body) => identity.requestEmailToken(this.options.http, this.server(), body),
      { email },
      options,
    );
  }

  /** Starts validating a phone number on the identity server (POST /validate/msisdn/requestToken). */
  msisdnValidation(
    country: string,
    phoneNumber: string,
    options: { nextLink?: string; random?: RandomFn } = {},
  ): ThreepidValidation<MsisdnTokenRequest> {
    return new ThreepidValidation<MsisdnTokenRequest>(
      (body) => identity.requestMsisdnToken(this.options.http, this.server(), body),
      { country, phone_number: phoneNumber },
      options,
    );
  }

  /** Submits the token a validation message brought; true when the server accepted it. */
  async submitValidationToken(
    medium: "email" | "msisdn",
    validation: ValidatedThreepid,
    token: string,
  ): Promise<boolean> {
    const body = { ...validation.credentials(), token };
    const submit = medium === "email" ? identity.submitEmailToken : identity.submitMsisdnToken;
    const res: unknown = await submit(this.options.http, this.server(), body);
    return (res as { success?: unknown } | null)?.success === true;
  }

  /** POST /account/logout, then forgets the identity token. */
  async logout(): Promise<void> {
    if (this.token === undefined) return;
    try {
      await identity.logoutAccount(this.options.http, this.server());
    } finally {
      this.token = undefined;
    }
  }

  /**
   * The identity token, for the homeserver calls that must name it
   * (3pid bind, invites by 3PID): never sent to any other host.
   */
  getAccessToken(): string | undefined {
    return this.token;
  }
}
