/**
 * A Session signed in through OIDC against the real provider (oidc-provider
 * wired to the test homeserver): the stored session keeps its provider and
 * client, the TokenRefresher refreshes at the provider's token endpoint when
 * the homeserver no longer takes the access token, a refused refresh ends
 * the session (an unreachable provider keeps it), signOut revokes the
 * tokens at the provider, and two pages sharing the stored session refresh
 * once under their lock (the provider revokes a grant whose refresh token
 * is used twice).
 */
import { driveProviderLogin, startOidcTestbed } from "@lattice/testserver/oidc";
import type { OidcTestbed } from "@lattice/testserver/oidc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { whoami } from "../../../src/api/account";
import { signOut } from "../../../src/auth/login";
import {
  completeAuthorization,
  discoverOidc,
  MemorySignInStateStorage,
  refreshAccessToken,
  registerClient,
  revokeToken,
  startAuthorization,
} from "../../../src/auth/oidc";
import type { ValidatedIssuerMetadata } from "../../../src/auth/oidc";
import { IDBFactory } from "fake-indexeddb";
import { indexedDbHandoff } from "../../../src/auth/handoff";
import { TokenRefresher } from "../../../src/auth/refresh";
import type { RefreshLock } from "../../../src/auth/refresh";
import { Session } from "../../../src/auth/session";
import { MemorySessionStorage, parseSessionData } from "../../../src/auth/storage";
import type { SessionData } from "../../../src/auth/storage";
import { createHttpClient } from "../../../src/http/client";
import { MatrixError } from "../../../src/http/errors";

const REDIRECT_URI = "http://127.0.0.1:9/callback";

let bed: OidcTestbed;
let metadata: ValidatedIssuerMetadata;
let clientId: string;

beforeAll(async () => {
  bed = await startOidcTestbed();
  bed.createUser("dora", "s3cret");
  ({ metadata } = await discoverOidc(createHttpClient({ baseUrl: bed.homeserver.url, retry: false })));
  clientId = await registerClient(metadata, {
    clientName: "Lattice test",
    clientUri: "http://127.0.0.1:9/",
    redirectUris: [REDIRECT_URI],
  });
});

afterAll(async () => {
  await bed?.stop();
});

/** Signs dora in through the provider's pages; the SessionData the app would store. */
async function signIn(): Promise<SessionData> {
  const storage = new MemorySignInStateStorage();
  const request = await startAuthorization({
    metadata,
    clientId,
    homeserverUrl: bed.homeserver.url,
    redirectUri: REDIRECT_URI,
    storage,
  });
  const callback = await driveProviderLogin(request.url, {
    username: "dora",
    password: "s3cret",
    redirectUri: REDIRECT_URI,
  });
  const result = await completeAuthorization({ metadata, storage, callback });
  return {
    homeserverUrl: bed.homeserver.url,
    userId: "@dora:localhost",
    deviceId: result.deviceId,
    accessToken: result.tokens.access_token,
    refreshToken: result.tokens.refresh_token,
    expiresAt: result.expiresAt,
    oidc: { issuer: result.issuer, clientId: result.clientId, subject: result.idTokenClaims.sub },
  };
}

/** What navigator.locks.request does for the tabs of one origin: one holder per name at a time, in order. */
function pagesLock(): RefreshLock {
  const tails = new Map<string, Promise<unknown>>();
  return (name, run) => {
    const result = (tails.get(name) ?? Promise.resolve()).then(run, run);
    tails.set(
      name,
      result.catch(() => undefined),
    );
    return result;
  };
}

function errcodeOf(err: unknown): string | undefined {
  return err instanceof MatrixError ? err.errcode : undefined;
}

describe("an OIDC session", () => {
  it("is stored with its provider and client, and read back", () => {
    const data = parseSessionData(
      JSON.parse(
        JSON.stringify({
          homeserverUrl: "http://127.0.0.1:1",
          userId: "@a:b",
          deviceId: "D",
          oidc: { issuer: "http://127.0.0.1:2", clientId: "c" },
        }),
      ),
    );
    expect(data?.oidc).toEqual({ issuer: "http://127.0.0.1:2", clientId: "c" });
    // The sign-in's ID token subject, which a refreshed ID token must repeat (OIDC Core 12.2).
    const withSubject = { homeserverUrl: "h", userId: "u", deviceId: "d" };
    expect(
      parseSessionData({ ...withSubject, oidc: { issuer: "i", clientId: "c", subject: "s" } })?.oidc,
    ).toEqual({ issuer: "i", clientId: "c", subject: "s" });
    expect(
      parseSessionData({ ...withSubject, oidc: { issuer: "i", clientId: "c", subject: 7 } })?.oidc,
    ).toEqual({ issuer: "i", clientId: "c" });
    expect(
      parseSessionData({ homeserverUrl: "h", userId: "u", deviceId: "d", oidc: { issuer: 3 } })?.oidc,
    ).toBe(undefined);
  });

  it("refreshes at the provider when the homeserver refuses the access token, then revokes on signOut", async () => {
    const data = await signIn();
    const session = new Session(new MemorySessionStorage(), data);
    const http = TokenRefresher.forSession(session, { retry: false });
    expect((await whoami(http)).device_id).toBe(data.deviceId);

    // The provider drops the access token: the homeserver answers M_UNKNOWN_TOKEN, the refresher refreshes.
    await revokeToken({ metadata, clientId }, data.accessToken ?? "", "access_token");
    expect((await whoami(http)).user_id).toBe("@dora:localhost");
    const fresh = session.getAccessToken();
    expect(fresh).not.toBe(data.accessToken);
    expect(session.getRefreshToken()).toBeDefined();
    expect(session.state.getSnapshot().kind).toBe("signed_in");

    const refreshToken = session.getRefreshToken() ?? "";
    await signOut(http, session);
    expect(session.state.getSnapshot()).toEqual({ kind: "signed_out", reason: "logout" });
    const bare = createHttpClient({ baseUrl: bed.homeserver.url, accessToken: fresh, retry: false });
    expect(errcodeOf(await whoami(bare).catch((e: unknown) => e))).toBe("M_UNKNOWN_TOKEN");
    await expect(refreshAccessToken({ metadata, clientId, refreshToken })).rejects.toMatchObject({
      code: "RefreshFailed",
      status: 400,
    });
  });

  it("two pages sharing the stored session refresh once under the pages' lock, and the grant lives on", async () => {
    const data = await signIn();
    const storage = new MemorySessionStorage();
    storage.save(data);
    const lock = pagesLock();
    // Two tabs restore the one stored session; each has its own refresher.
    const [a, b] = await Promise.all([Session.restore(storage), Session.restore(storage)]);
    const [pageA, pageB] = [a, b].map((s) => TokenRefresher.forSession(s, { retry: false, lock })) as [
      TokenRefresher,
      TokenRefresher,
    ];
    // The provider drops the access token: both tabs meet M_UNKNOWN_TOKEN at once and both need a refresh.
    await revokeToken({ metadata, clientId }, data.accessToken ?? "", "access_token");
    const seen = await Promise.all([whoami(pageA), whoami(pageB)]);
    expect(seen.map((w) => w.user_id)).toEqual(["@dora:localhost", "@dora:localhost"]);
    // One refresh: the second tab took the first one's tokens instead of spending the same refresh token again.
    expect(b.getAccessToken()).toBe(a.getAccessToken());
    expect(b.getRefreshToken()).toBe(a.getRefreshToken());
    expect(a.getAccessToken()).not.toBe(data.accessToken);
    // The provider kept the grant: the refreshed tokens work, and so does the next refresh.
    await revokeToken({ metadata, clientId }, a.getAccessToken() ?? "", "access_token");
    expect((await whoami(pageB)).user_id).toBe("@dora:localhost");
    expect((await whoami(pageA)).user_id).toBe("@dora:localhost");
    expect([a.state.getSnapshot().kind, b.state.getSnapshot().kind]).toEqual(["signed_in", "signed_in"]);
  });

  it("the tab that waited takes the tokens through the handoff when the stored session reaches it late", async () => {
    const data = await signIn();
    // Each tab's copy of the stored session: the first tab's save has not reached the second's.
    const [storeA, storeB] = [new MemorySessionStorage(), new MemorySessionStorage()];
    storeA.save(data);
    storeB.save(data);
    const [a, b] = await Promise.all([Session.restore(storeA), Session.restore(storeB)]);
    const lock = pagesLock();
    const factory = new IDBFactory();
    const [pageA, pageB] = [a, b].map((s) =>
      TokenRefresher.forSession(s, { retry: false, lock, handoff: indexedDbHandoff(factory) }),
    ) as [TokenRefresher, TokenRefresher];
    await revokeToken({ metadata, clientId }, data.accessToken ?? "", "access_token");
    await Promise.all([whoami(pageA), whoami(pageB)]);
    expect(b.getRefreshToken()).toBe(a.getRefreshToken());
    expect(b.getRefreshToken()).not.toBe(data.refreshToken);
    // The grant lives on: the next refresh works in either tab.
    await revokeToken({ metadata, clientId }, b.getAccessToken() ?? "", "access_token");
    expect((await whoami(pageB)).user_id).toBe("@dora:localhost");
    expect([a.state.getSnapshot().kind, b.state.getSnapshot().kind]).toEqual(["signed_in", "signed_in"]);
  });

  it("keeps the session when the provider cannot be reached for a refresh", async () => {
    const data = await signIn();
    // A provider nobody answers for (port 1 on loopback refuses connections).
    const session = new Session(new MemorySessionStorage(), {
      ...data,
      oidc: { issuer: "http://127.0.0.1:1", clientId },
    });
    const http = TokenRefresher.forSession(session, { retry: false });
    await revokeToken({ metadata, clientId }, data.accessToken ?? "", "access_token");
    await expect(whoami(http)).rejects.toMatchObject({ name: "OidcError" });
    expect(session.state.getSnapshot().kind).toBe("signed_in");
    expect(session.getRefreshToken()).toBe(data.refreshToken);
  });

  it("ends with refresh_failed when the provider refuses the refresh token", async () => {
    const data = await signIn();
    const session = new Session(new MemorySessionStorage(), data);
    const http = TokenRefresher.forSession(session, { retry: false });
    await revokeToken({ metadata, clientId }, data.refreshToken ?? "", "refresh_token");
    await revokeToken({ metadata, clientId }, data.accessToken ?? "", "access_token");
    await expect(whoami(http)).rejects.toMatchObject({ code: "REFRESH_FAILED" });
    expect(session.state.getSnapshot()).toMatchObject({ kind: "signed_out", reason: "refresh_failed" });
  });
});
