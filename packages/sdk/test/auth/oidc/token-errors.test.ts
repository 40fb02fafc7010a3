/**
 * Sign-in failures after discovery, each from a real misbehaving answer
 * over loopback HTTP: the code exchange, the bearer token response, the ID
 * token (issuer, audience, nonce, expiry, signature), stale or missing
 * sign-in state, and refresh (its failures and its 300 s time-out).
 */
import { startMisbehavingProvider } from "@lattice/testserver/oidc";
import type { MisbehavingProvider } from "@lattice/testserver/oidc";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  completeAuthorization,
  OidcError,
  REFRESH_TIMEOUT_MS,
  refreshAccessToken,
  STALE_STATE_MS,
} from "../../../src/auth/oidc";
import type { Misbehaviour } from "@lattice/testserver/oidc";
import type { ValidatedIssuerMetadata } from "../../../src/auth/oidc";
import { discover, signIn, signInUntilCallback } from "./support";

let bad: MisbehavingProvider;
let metadata: ValidatedIssuerMetadata;

beforeAll(async () => {
  bad = await startMisbehavingProvider();
  metadata = (await discover(bad)).metadata;
});
afterEach(() => {
  bad.misbehave({});
  vi.useRealTimers();
});
afterAll(async () => {
  await bad.stop();
});

/** Signs in with `behaviour` set on the token endpoint; returns the error. */
async function signInError(behaviour: Misbehaviour): Promise<OidcError> {
  const { storage, callback } = await signInUntilCallback(metadata, bad.url);
  bad.misbehave(behaviour);
  const err: unknown = await completeAuthorization({ metadata, storage, callback }).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof OidcError)) throw new Error(`expected an OidcError, got ${String(err)}`);
  return err;
}

describe("code exchange", () => {
  it("signs in when every answer is right, with token_type in any case", async () => {
    bad.misbehave({ tokenPatch: { token_type: "BEARER" } });
    const result = await signIn(metadata, bad.url);
    expect(result.homeserverUrl).toBe(bad.url);
    expect(result.idTokenClaims.iss).toBe(bad.issuer);
  });

  it("'Failed to exchange code for token' when the token endpoint refuses", async () => {
    expect((await signInError({ token: "invalid-grant" })).message).toBe("Failed to exchange code for token");
  });

  it("'Failed to exchange code for token' when the redirect carries an error", async () => {
    const { storage, callback } = await signInUntilCallback(metadata, bad.url);
    const denied = new URL(callback);
    denied.searchParams.delete("code");
    denied.searchParams.set("error", "access_denied");
    await expect(completeAuthorization({ metadata, storage, callback: denied })).rejects.toMatchObject({
      message: "Failed to exchange code for token",
    });
  });

  it.each([
    ["token_type is not bearer", { tokenPatch: { token_type: "mac" } }],
    ["the access token is missing", { tokenPatch: { access_token: undefined } }],
    ["the refresh token is missing", { tokenPatch: { refresh_token: undefined } }],
    ["expires_in is not a number", { tokenPatch: { expires_in: "300" } }],
    ["the body is not JSON", { token: "not-json" as const }],
  ])("'Invalid bearer token response' when %s", async (_why, behaviour) => {
    expect((await signInError(behaviour)).message).toBe("Invalid bearer token response");
  });

  it.each([
    ["the issuer is wrong", { idTokenPatch: { iss: "https://evil.example.org" } }],
    ["the audience is another client", { idTokenPatch: { aud: "someone-else" } }],
    ["the nonce is wrong", { idTokenPatch: { nonce: "12345678" } }],
    ["the nonce is missing", { idTokenPatch: { nonce: undefined } }],
    ["it has expired", { idTokenPatch: { exp: Math.floor(Date.now() / 1000) - 3600 } }],
    ["the signature is not the provider's", { foreignKey: true }],
    ["there is none", { tokenPatch: { id_token: undefined } }],
  ])("'Invalid ID token' when %s", async (_why, behaviour) => {
    expect((await signInError(behaviour)).message).toBe("Invalid ID token");
  });
});

describe("stored sign-in state", () => {
  it("'State required to finish logging in is not found in storage' after 900 s", async () => {
    let now = Date.now();
    const { storage, callback } = await signInUntilCallback(metadata, bad.url, () => now);
    now += STALE_STATE_MS + 1;
    await expect(
      completeAuthorization({ metadata, storage, callback, now: () => now }),
    ).rejects.toMatchObject({
      message: "State required to finish logging in is not found in storage",
    });
  });

  it("is still good just before 900 s", async () => {
    let now = Date.now();
    const { storage, callback } = await signInUntilCallback(metadata, bad.url, () => now);
    now += STALE_STATE_MS - 1000;
    // The ID token's times are checked against the same clock: keep them in its window.
    const iat = Math.floor(now / 1000);
    bad.misbehave({ idTokenPatch: { iat, exp: iat + 300 } });
    const result = await completeAuthorization({ metadata, storage, callback, now: () => now });
    expect(result.expiresAt).toBe(now + 300_000);
  });

  it("'State required to finish logging in is not found in storage' for an unknown state, or a second use", async () => {
    const { storage, callback } = await signInUntilCallback(metadata, bad.url);
    const forged = new URL(callback);
    forged.searchParams.set("state", "zzzzzzzz");
    await expect(completeAuthorization({ metadata, storage, callback: forged })).rejects.toMatchObject({
      message: "State required to finish logging in is not found in storage",
    });
    await completeAuthorization({ metadata, storage, callback });
    await expect(completeAuthorization({ metadata, storage, callback })).rejects.toMatchObject({
      code: "MissingOrInvalidStoredState",
    });
  });

  it("keeps sign-ins in flight apart: each finishes with its own state, in any order", async () => {
    const first = await signInUntilCallback(metadata, bad.url);
    const second = await signInUntilCallback(metadata, "http://127.0.0.1:1/other-homeserver");
    const b = await completeAuthorization({ metadata, storage: second.storage, callback: second.callback });
    const a = await completeAuthorization({ metadata, storage: first.storage, callback: first.callback });
    expect(a.homeserverUrl).toBe(bad.url);
    expect(b.homeserverUrl).toBe("http://127.0.0.1:1/other-homeserver");
    expect(a.deviceId).not.toBe(b.deviceId);
  });

  it("'Stored state needs homeserverUrl and nonce' for a record without them", async () => {
    const { storage, request, callback } = await signInUntilCallback(metadata, bad.url);
    const record = storage.get(request.state)!;
    storage.set(request.state, { ...record, nonce: "" });
    await expect(completeAuthorization({ metadata, storage, callback })).rejects.toMatchObject({
      message: "Stored state needs homeserverUrl and nonce",
    });
  });
});

describe("refresh", () => {
  it("returns new tokens and keeps the refresh token when the provider does not rotate it", async () => {
    const first = await signIn(metadata, bad.url);
    bad.misbehave({ tokenPatch: { refresh_token: undefined, id_token: undefined } });
    const refreshed = await refreshAccessToken({
      metadata,
      clientId: first.clientId,
      refreshToken: first.tokens.refresh_token,
    });
    expect(refreshed.tokens.refresh_token).toBe(first.tokens.refresh_token);
    expect(refreshed.tokens.access_token).not.toBe(first.tokens.access_token);
  });

  it("fails on a refused refresh token, and checks the bearer response", async () => {
    const first = await signIn(metadata, bad.url);
    await expect(
      refreshAccessToken({ metadata, clientId: first.clientId, refreshToken: "unknown" }),
    ).rejects.toMatchObject({ code: "RefreshFailed" });
    bad.misbehave({ tokenPatch: { expires_in: null } });
    await expect(
      refreshAccessToken({ metadata, clientId: first.clientId, refreshToken: first.tokens.refresh_token }),
    ).rejects.toMatchObject({ message: "Invalid bearer token response" });
  });

  it("gives up after 300 s", async () => {
    const first = await signIn(metadata, bad.url);
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    bad.misbehave({ token: "hang" });
    let settled: unknown;
    const pending = refreshAccessToken({
      metadata,
      clientId: first.clientId,
      refreshToken: first.tokens.refresh_token,
    }).then(
      () => (settled = "resolved"),
      (e: unknown) => (settled = e),
    );
    const before = bad.requests.length;
    while (!bad.requests.slice(before).includes("POST /token")) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    await vi.advanceTimersByTimeAsync(REFRESH_TIMEOUT_MS - 1);
    expect(settled).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    await pending;
    expect(settled).toMatchObject({ code: "RefreshFailed" });
  });
});
