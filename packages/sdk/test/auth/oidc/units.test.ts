/**
 * The pure parts of OIDC sign-in: the registration body and its URL rule,
 * the login scope, the sign-in randoms and the authorization URL, the
 * stored sign-in state (shape snapshot, Web Storage adapter, hostile
 * records) and the bearer response check on hostile JSON.
 */
import { describe, expect, it } from "vitest";
import {
  buildLoginScope,
  buildRegistrationBody,
  CODE_VERIFIER_LENGTH,
  isLoopbackUrl,
  isOnClientHost,
  MemorySignInStateStorage,
  OidcError,
  startAuthorization,
  takeSignInState,
  validateBearerTokenResponse,
  WebSignInStateStorage,
} from "../../../src/auth/oidc";
import type { ValidatedIssuerMetadata } from "../../../src/auth/oidc";
import { MemoryKeyValueStorage } from "../../../src/auth/storage";

const METADATA: ValidatedIssuerMetadata = {
  issuer: "https://auth.example.org/",
  authorization_endpoint: "https://auth.example.org/authorize",
  token_endpoint: "https://auth.example.org/token",
  revocation_endpoint: "https://auth.example.org/revoke",
  jwks_uri: "https://auth.example.org/jwks",
  response_types_supported: ["code"],
  grant_types_supported: ["authorization_code"],
  code_challenge_methods_supported: ["S256"],
};

/** A deterministic random source cycling through fixed values. */
function seeded(): () => number {
  let i = 0;
  return () => ((i++ * 7919) % 1000) / 1000;
}

describe("registration body", () => {
  it("has SPEC §3's fields, and sends own-host URLs only", () => {
    const body = buildRegistrationBody({
      clientName: "Lattice",
      clientUri: "https://app.example.org/",
      redirectUris: ["https://app.example.org/callback"],
      contacts: ["admin@example.org"],
      logoUri: "https://cdn.app.example.org/logo.png",
      policyUri: "https://evil.example.net/privacy",
      tosUri: "https://app.example.org/terms",
    });
    expect(body).toMatchInlineSnapshot(`
      {
        "application_type": "web",
        "client_name": "Lattice",
        "client_uri": "https://app.example.org/",
        "contacts": [
          "admin@example.org",
        ],
        "grant_types": [
          "authorization_code",
          "refresh_token",
        ],
        "id_token_signed_response_alg": "RS256",
        "logo_uri": "https://cdn.app.example.org/logo.png",
        "redirect_uris": [
          "https://app.example.org/callback",
        ],
        "response_types": [
          "code",
        ],
        "token_endpoint_auth_method": "none",
        "tos_uri": "https://app.example.org/terms",
      }
    `);
  });

  it.each([
    ["https://app.example.org/x", true],
    ["https://a.b.app.example.org/x", true],
    ["https://evilapp.example.org/x", false],
    ["https://app.example.org.evil.net/x", false],
    ["not a url", false],
  ])("%s on app.example.org: %s", (url, expected) => {
    expect(isOnClientHost(url, "https://app.example.org/")).toBe(expected);
  });
});

describe("login scope", () => {
  it("uses the unstable MSC2967 forms unless the provider lists the stable API scope", () => {
    expect(buildLoginScope("ABCDEFGHIJ")).toBe(
      "openid urn:matrix:org.matrix.msc2967.client:api:* urn:matrix:org.matrix.msc2967.client:device:ABCDEFGHIJ",
    );
    expect(buildLoginScope("ABCDEFGHIJ", ["openid", "urn:matrix:client:api:*"])).toBe(
      "openid urn:matrix:client:api:* urn:matrix:client:device:ABCDEFGHIJ",
    );
  });
});

describe("startAuthorization", () => {
  it("builds a PKCE S256 URL with 8-character state and nonce, and stores the sign-in state", async () => {
    const storage = new MemorySignInStateStorage();
    const request = await startAuthorization({
      metadata: METADATA,
      clientId: "client-1",
      homeserverUrl: "https://matrix.example.org",
      identityServerUrl: "https://id.example.org",
      redirectUri: "https://app.example.org/callback",
      storage,
      random: seeded(),
      now: () => 1_700_000_000_000,
    });
    const url = new URL(request.url);
    const q = Object.fromEntries(url.searchParams);
    expect(url.origin + url.pathname).toBe(METADATA.authorization_endpoint);
    expect(q["state"]).toMatch(/^[A-Za-z0-9]{8}$/);
    expect(q["nonce"]).toMatch(/^[A-Za-z0-9]{8}$/);
    expect(q["code_challenge_method"]).toBe("S256");
    expect(q["code_challenge"]).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q["response_type"]).toBe("code");
    expect(q["scope"]).toBe(request.scope);
    expect(request.deviceId).toMatch(/^[A-Za-z0-9]{10}$/);
    const stored = storage.get(request.state)!;
    expect(stored.codeVerifier).toHaveLength(CODE_VERIFIER_LENGTH);
    expect(stored.codeVerifier).toMatch(/^[A-Za-z0-9._~-]+$/);
    expect(stored.nonce).toBe(q["nonce"]);
    // The persisted shape: a change here breaks sign-ins in flight across an upgrade.
    expect(Object.keys(stored).sort()).toMatchInlineSnapshot(`
      [
        "clientId",
        "codeVerifier",
        "createdAt",
        "deviceId",
        "homeserverUrl",
        "identityServerUrl",
        "issuer",
        "nonce",
        "redirectUri",
      ]
    `);
  });

  it("passes a chosen device id and prompt through", async () => {
    const request = await startAuthorization({
      metadata: METADATA,
      clientId: "c",
      homeserverUrl: "https://hs",
      redirectUri: "https://app/cb",
      storage: new MemorySignInStateStorage(),
      deviceId: "MYDEVICE01",
      prompt: "create",
    });
    const q = new URL(request.url).searchParams;
    expect(q.get("prompt")).toBe("create");
    expect(q.get("scope")).toContain("device:MYDEVICE01");
    expect(request.deviceId).toBe("MYDEVICE01");
  });

  it("draws fresh randoms for each sign-in", async () => {
    const storage = new MemorySignInStateStorage();
    const params = {
      metadata: METADATA,
      clientId: "c",
      homeserverUrl: "https://hs",
      redirectUri: "https://app/cb",
      storage,
    };
    const a = await startAuthorization(params);
    const b = await startAuthorization(params);
    expect(a.state).not.toBe(b.state);
    expect(a.deviceId).not.toBe(b.deviceId);
  });
});

describe("stored sign-in state", () => {
  const record = {
    homeserverUrl: "https://hs",
    nonce: "abcdefgh",
    codeVerifier: "v".repeat(64),
    redirectUri: "https://app/cb",
    clientId: "c",
    issuer: "https://auth/",
    deviceId: "DEVICEID01",
    createdAt: 1000,
  };

  it("round-trips through a Web Storage and is taken once", async () => {
    const store = new MemoryKeyValueStorage();
    const storage = new WebSignInStateStorage(store);
    storage.set("__proto__", record);
    expect(await takeSignInState(storage, "__proto__", 2000)).toEqual(record);
    expect(store.entries.size).toBe(0);
    await expect(takeSignInState(storage, "__proto__", 2000)).rejects.toBeInstanceOf(OidcError);
  });

  it.each([
    ["not JSON", "{not json"],
    ["JSON null", "null"],
    ["an array", "[1,2]"],
    ["without a creation time", JSON.stringify({ ...record, createdAt: "yesterday" })],
    ["with a non-string verifier", JSON.stringify({ ...record, codeVerifier: 5 })],
  ])("treats a record that is %s as not found", async (_what, raw) => {
    const store = new MemoryKeyValueStorage();
    store.setItem("lattice_oidc_state_s", raw);
    await expect(takeSignInState(new WebSignInStateStorage(store), "s", 2000)).rejects.toMatchObject({
      message: "State required to finish logging in is not found in storage",
    });
  });

  it("needs homeserverUrl and nonce", async () => {
    const storage = new MemorySignInStateStorage();
    storage.set("s", { ...record, homeserverUrl: "" });
    await expect(takeSignInState(storage, "s", 2000)).rejects.toMatchObject({
      message: "Stored state needs homeserverUrl and nonce",
    });
  });
});

describe("bearer token response check", () => {
  it.each([null, [], "x", 42, JSON.parse('{"__proto__":{"token_type":"bearer"}}') as unknown])(
    "rejects %j",
    (body) => {
      expect(() => validateBearerTokenResponse(body)).toThrow("Invalid bearer token response");
    },
  );

  it("accepts bearer in any case and keeps only the known fields", () => {
    const out = validateBearerTokenResponse({
      token_type: "BeArEr",
      access_token: "a",
      refresh_token: "r",
      expires_in: 60,
      extra: { deep: true },
    });
    expect(out).toEqual({ token_type: "BeArEr", access_token: "a", refresh_token: "r", expires_in: 60 });
  });
});

describe("loopback rule", () => {
  it.each([
    ["http://127.0.0.1:8080/", true],
    ["http://127.1.2.3/", true],
    ["http://localhost/", true],
    ["http://[::1]:80/", true],
    ["http://127.0.0.1.evil.net/", false],
    ["https://example.org/", false],
    ["garbage", false],
  ])("%s: %s", (url, expected) => {
    expect(isLoopbackUrl(url)).toBe(expected);
  });
});
