/**
 * The whole OIDC sign-in against a real provider (oidc-provider) over
 * loopback HTTP: discovery from the homeserver's auth_metadata to the
 * issuer's openid-configuration, dynamic registration, the authorization
 * code flow with PKCE through the provider's login and consent pages, the
 * code exchange with its ID token checks, an authenticated call to the
 * homeserver with the OIDC access token, user info, refresh and revocation.
 */
import { startOidcTestbed, driveProviderLogin } from "@lattice/testserver/oidc";
import type { OidcTestbed } from "@lattice/testserver/oidc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { whoami } from "../../../src/api/account";
import { getDevices } from "../../../src/api/devices";
import { MatrixError } from "../../../src/http/errors";
import { createHttpClient } from "../../../src/http/client";
import {
  completeAuthorization,
  discoverOidc,
  getUserInfo,
  MemorySignInStateStorage,
  refreshAccessToken,
  registerClient,
  revokeSession,
  startAuthorization,
} from "../../../src/auth/oidc";
import type { ValidatedIssuerMetadata } from "../../../src/auth/oidc";

const REDIRECT_URI = "http://127.0.0.1:9/callback";

describe("OIDC sign-in against a provider that only knows the unstable scopes", () => {
  let bed: OidcTestbed;

  beforeAll(async () => {
    bed = await startOidcTestbed({ provider: { advertiseStableScopes: false } });
    bed.createUser("bob", "hunter2");
  });

  afterAll(async () => {
    await bed.stop();
  });

  it("asks for the MSC2967 scopes, and the homeserver accepts the token", async () => {
    const http = createHttpClient({ baseUrl: bed.homeserver.url, retry: false });
    const { metadata } = await discoverOidc(http);
    const clientId = await registerClient(metadata, {
      clientName: "Lattice test",
      clientUri: "http://127.0.0.1:9/",
      redirectUris: [REDIRECT_URI],
      applicationType: "native",
    });
    const storage = new MemorySignInStateStorage();
    const request = await startAuthorization({
      metadata,
      clientId,
      homeserverUrl: bed.homeserver.url,
      redirectUri: REDIRECT_URI,
      storage,
    });
    expect(request.scope).toContain(`urn:matrix:org.matrix.msc2967.client:device:${request.deviceId}`);
    const callback = await driveProviderLogin(request.url, {
      username: "bob",
      password: "hunter2",
      redirectUri: REDIRECT_URI,
    });
    const result = await completeAuthorization({ metadata, storage, callback });
    const hs = createHttpClient({
      baseUrl: bed.homeserver.url,
      accessToken: result.tokens.access_token,
      retry: false,
    });
    expect(await whoami(hs)).toMatchObject({ user_id: "@bob:localhost", device_id: request.deviceId });
  });
});

describe("OIDC sign-in against oidc-provider", () => {
  let bed: OidcTestbed;
  let userId: string;

  beforeAll(async () => {
    bed = await startOidcTestbed();
    userId = bed.createUser("alice", "correct horse");
  });

  afterAll(async () => {
    await bed.stop();
  });

  async function signIn(metadata: ValidatedIssuerMetadata, clientId: string) {
    const storage = new MemorySignInStateStorage();
    const request = await startAuthorization({
      metadata,
      clientId,
      homeserverUrl: bed.homeserver.url,
      identityServerUrl: "https://id.example.org",
      redirectUri: REDIRECT_URI,
      storage,
    });
    const callback = await driveProviderLogin(request.url, {
      username: "alice",
      password: "correct horse",
      redirectUri: REDIRECT_URI,
    });
    const result = await completeAuthorization({ metadata, storage, callback });
    return { request, result, storage };
  }

  it("discovers, registers, signs in, calls the homeserver, refreshes and revokes", async () => {
    const http = createHttpClient({ baseUrl: bed.homeserver.url, retry: false });
    const { issuer, metadata } = await discoverOidc(http);
    expect(issuer).toBe(bed.provider.issuer);
    expect(metadata.token_endpoint.startsWith(bed.provider.issuer)).toBe(true);

    const clientId = await registerClient(metadata, {
      clientName: "Lattice test",
      clientUri: "http://127.0.0.1:9/",
      redirectUris: [REDIRECT_URI],
    });
    expect(clientId).not.toBe("");

    const { request, result } = await signIn(metadata, clientId);
    expect(request.deviceId).toMatch(/^[A-Za-z0-9]{10}$/);
    expect(request.scope).toBe(`openid urn:matrix:client:api:* urn:matrix:client:device:${request.deviceId}`);
    expect(result.homeserverUrl).toBe(bed.homeserver.url);
    expect(result.identityServerUrl).toBe("https://id.example.org");
    expect(result.deviceId).toBe(request.deviceId);
    expect(result.tokens.token_type.toLowerCase()).toBe("bearer");
    expect(result.idTokenClaims.sub).toBe(userId);
    expect(result.idTokenClaims.aud).toBe(clientId);

    // The homeserver accepts the provider's access token, for the device the scope named.
    const hs = createHttpClient({
      baseUrl: bed.homeserver.url,
      accessToken: result.tokens.access_token,
      retry: false,
    });
    expect(await whoami(hs)).toMatchObject({ user_id: userId, device_id: request.deviceId });
    expect((await getDevices(hs)).devices?.map((d) => d.device_id)).toContain(request.deviceId);

    const info = await getUserInfo({ metadata, clientId }, result.tokens.access_token, userId);
    expect(info.sub).toBe(userId);

    const refreshed = await refreshAccessToken({
      metadata,
      clientId,
      refreshToken: result.tokens.refresh_token,
    });
    expect(refreshed.tokens.access_token).not.toBe(result.tokens.access_token);
    // oidc-provider sends a new ID token on refresh: verified against its JWKS as at sign-in.
    expect(refreshed.tokens.id_token).toBeDefined();
    expect(refreshed.idTokenClaims?.sub).toBe(result.idTokenClaims.sub);
    expect(refreshed.idTokenClaims?.iss).toBe(result.idTokenClaims.iss);

    const hsRefreshed = createHttpClient({
      baseUrl: bed.homeserver.url,
      accessToken: refreshed.tokens.access_token,
      retry: false,
    });
    expect(await whoami(hsRefreshed)).toMatchObject({ user_id: userId, device_id: request.deviceId });

    await revokeSession(
      { metadata, clientId },
      { accessToken: refreshed.tokens.access_token, refreshToken: refreshed.tokens.refresh_token },
    );
    await expect(
      refreshAccessToken({ metadata, clientId, refreshToken: refreshed.tokens.refresh_token }),
    ).rejects.toMatchObject({ code: "RefreshFailed" });
    // Revoked at the provider: the homeserver no longer accepts it.
    const after = await whoami(hsRefreshed).catch((e: unknown) => e);
    expect(after).toBeInstanceOf(MatrixError);
    expect((after as MatrixError).errcode).toBe("M_UNKNOWN_TOKEN");
    // Every homeserver answer on the way (auth_metadata, whoami, devices) matched the Matrix spec.
    expect(bed.homeserver.validationErrors).toEqual([]);
  });

  it("refuses a token the provider never issued", async () => {
    const hs = createHttpClient({ baseUrl: bed.homeserver.url, accessToken: "forged-token", retry: false });
    await expect(whoami(hs)).rejects.toMatchObject({ errcode: "M_UNKNOWN_TOKEN" });
  });
});
