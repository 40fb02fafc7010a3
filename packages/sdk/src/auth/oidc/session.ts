/**
 * Calls with a signed-in OIDC session: the provider's user info, and
 * revoking tokens on logout (RFC 7009). Revoking the refresh token first
 * ends the whole grant at providers that tie tokens together; the access
 * token is revoked as well for those that do not.
 */
import {
  None,
  processRevocationResponse,
  processUserInfoResponse,
  revocationRequest,
  skipSubjectCheck,
  userInfoRequest,
} from "oauth4webapi";
import type { AuthorizationServer, UserInfoResponse } from "oauth4webapi";
import { OidcError } from "./errors";
import { oauthHttpOptions } from "./fetch";
import type { OidcRequestOptions } from "./fetch";
import { oauthClient } from "./tokens";
import type { ValidatedIssuerMetadata } from "./wire-types";

/** A provider client: its metadata and our client_id there. */
export interface OidcClientRef extends OidcRequestOptions {
  metadata: ValidatedIssuerMetadata;
  clientId: string;
}

/** The user info claims (sub, and whatever else the provider shares). */
export type UserInfo = UserInfoResponse;

/**
 * The provider's user info for `accessToken`. `expectedSubject` (the ID
 * token's sub) must match when given. Any failure: UserInfoFailed.
 */
export async function getUserInfo(
  ref: OidcClientRef,
  accessToken: string,
  expectedSubject?: string,
): Promise<UserInfo> {
  const endpoint = ref.metadata.userinfo_endpoint;
  if (endpoint === undefined) {
    throw new OidcError("UserInfoFailed", { cause: new Error("the provider has no userinfo_endpoint") });
  }
  const as = ref.metadata as AuthorizationServer;
  const client = oauthClient(ref.clientId, Date.now());
  try {
    const response = await userInfoRequest(
      as,
      client,
      accessToken,
      oauthHttpOptions(endpoint, ref, ref.signal),
    );
    return await processUserInfoResponse(as, client, expectedSubject ?? skipSubjectCheck, response);
  } catch (err) {
    throw new OidcError("UserInfoFailed", { cause: err });
  }
}

/** Revokes one token; `hint` says which kind it is. Any failure: RevocationFailed. */
export async function revokeToken(
  ref: OidcClientRef,
  token: string,
  hint: "access_token" | "refresh_token",
): Promise<void> {
  const as = ref.metadata as AuthorizationServer;
  try {
    const response = await revocationRequest(as, oauthClient(ref.clientId, Date.now()), None(), token, {
      additionalParameters: { token_type_hint: hint },
      ...oauthHttpOptions(ref.metadata.revocation_endpoint, ref, ref.signal),
    });
    await processRevocationResponse(response);
  } catch (err) {
    throw new OidcError("RevocationFailed", { cause: err });
  }
}

/**
 * Logout: revokes the refresh token, then the access token. Both are
 * attempted; the first failure is thrown after both were tried.
 */
export async function revokeSession(
  ref: OidcClientRef,
  tokens: { accessToken?: string; refreshToken?: string },
): Promise<void> {
  const failures: unknown[] = [];
  if (tokens.refreshToken !== undefined) {
    await revokeToken(ref, tokens.refreshToken, "refresh_token").catch((err: unknown) => failures.push(err));
  }
  if (tokens.accessToken !== undefined) {
    await revokeToken(ref, tokens.accessToken, "access_token").catch((err: unknown) => failures.push(err));
  }
  if (failures.length > 0) throw failures[0];
}
