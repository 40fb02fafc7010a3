/**
 * User info and revocation with a signed-in session, against the
 * misbehaving provider: the happy path, a provider error, another user's
 * claims, and a logout that still tries both tokens when one fails.
 */
import { startMisbehavingProvider } from "@lattice/testserver/oidc";
import type { MisbehavingProvider } from "@lattice/testserver/oidc";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getUserInfo, revokeSession, revokeToken } from "../../../src/auth/oidc";
import type { OidcSignInResult, ValidatedIssuerMetadata } from "../../../src/auth/oidc";
import { discover, signIn } from "./support";

let bad: MisbehavingProvider;
let metadata: ValidatedIssuerMetadata;
let session: OidcSignInResult;

beforeAll(async () => {
  bad = await startMisbehavingProvider();
  metadata = (await discover(bad)).metadata;
  session = await signIn(metadata, bad.url);
});
afterEach(() => {
  bad.misbehave({});
  bad.requests.length = 0;
});
afterAll(async () => {
  await bad.stop();
});

describe("user info", () => {
  it("returns the claims of the token's user", async () => {
    const ref = { metadata, clientId: session.clientId };
    expect((await getUserInfo(ref, session.tokens.access_token, session.idTokenClaims.sub)).sub).toBe(
      "@alice:localhost",
    );
  });

  it.each(["server-error", "wrong-sub"] as const)("fails with UserInfoFailed on %s", async (userinfo) => {
    bad.misbehave({ userinfo });
    await expect(
      getUserInfo({ metadata, clientId: session.clientId }, session.tokens.access_token, "@alice:localhost"),
    ).rejects.toMatchObject({ code: "UserInfoFailed" });
  });

  it("fails without a userinfo endpoint, without a request", async () => {
    const { userinfo_endpoint: _gone, ...rest } = metadata;
    await expect(
      getUserInfo({ metadata: rest, clientId: session.clientId }, session.tokens.access_token),
    ).rejects.toMatchObject({ code: "UserInfoFailed" });
    expect(bad.requests).toEqual([]);
  });
});

describe("revocation", () => {
  it("revokes the refresh token, then the access token", async () => {
    await revokeSession(
      { metadata, clientId: session.clientId },
      { accessToken: session.tokens.access_token, refreshToken: session.tokens.refresh_token },
    );
    expect(bad.requests).toEqual(["POST /revoke", "POST /revoke"]);
  });

  it("tries both tokens when the provider fails, then reports RevocationFailed", async () => {
    bad.misbehave({ revocation: "server-error" });
    await expect(
      revokeSession(
        { metadata, clientId: session.clientId },
        { accessToken: session.tokens.access_token, refreshToken: session.tokens.refresh_token },
      ),
    ).rejects.toMatchObject({ code: "RevocationFailed", message: "Failed to revoke the token" });
    expect(bad.requests).toEqual(["POST /revoke", "POST /revoke"]);
    await expect(
      revokeToken({ metadata, clientId: session.clientId }, "x", "access_token"),
    ).rejects.toMatchObject({ code: "RevocationFailed" });
  });
});
