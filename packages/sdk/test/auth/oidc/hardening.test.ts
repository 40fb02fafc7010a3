/**
 * Issue 24's sign-in hardening, each case a real answer of the misbehaving
 * provider over loopback HTTP: the homeserver's own auth_metadata checked as
 * strictly as the issuer's; the refresh_token grant required (an absent
 * grant list means RFC 8414's default, which lacks it); the response mode
 * checked where it is used; account management fields type-checked; ID
 * tokens on refresh verified exactly as on sign-in (JWKS signature, unknown
 * kid, wrong key); an ID token issued in the future refused beyond 5 min of
 * clock skew; a negative or fractional expires_in refused; and the legacy
 * m.authentication well-known read when auth_metadata is absent.
 */
import { startMisbehavingProvider } from "@lattice/testserver/oidc";
import type { Misbehaviour, MisbehavingProvider } from "@lattice/testserver/oidc";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  completeAuthorization,
  discoverOidc,
  ID_TOKEN_CLOCK_SKEW_S,
  MemorySignInStateStorage,
  OidcError,
  refreshAccessToken,
  registerClient,
  startAuthorization,
} from "../../../src/auth/oidc";
import type { ValidatedIssuerMetadata } from "../../../src/auth/oidc";
import { createHttpClient } from "../../../src/http/client";
import { discover, followAuthorization, REDIRECT_URI, signIn, signInUntilCallback } from "./support";

let bad: MisbehavingProvider;

beforeAll(async () => {
  bad = await startMisbehavingProvider();
});
afterEach(() => {
  bad.misbehave({});
  bad.requests.length = 0;
});
afterAll(async () => {
  await bad.stop();
});

async function failure(promise: Promise<unknown>): Promise<OidcError> {
  const err: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof OidcError)) throw new Error(`expected an OidcError, got ${String(err)}`);
  return err;
}

const OP_SUPPORT = "Configured OIDC OP does not support required functions";
const MISCONFIGURED = "OIDC is misconfigured";

describe("the homeserver's auth_metadata is checked as strictly as the issuer's", () => {
  it.each([
    ["S256 is not offered", { code_challenge_methods_supported: ["plain"] }, OP_SUPPORT],
    ["PKCE is not offered at all", { code_challenge_methods_supported: undefined }, OP_SUPPORT],
    ["the code response type is missing", { response_types_supported: ["token"] }, OP_SUPPORT],
    ["the refresh_token grant is missing", { grant_types_supported: ["authorization_code"] }, OP_SUPPORT],
    [
      "the grant list is absent (RFC 8414 default: no refresh_token)",
      { grant_types_supported: undefined },
      OP_SUPPORT,
    ],
    ["no response mode we can use is offered", { response_modes_supported: ["form_post"] }, OP_SUPPORT],
    ["a capability list is a string", { code_challenge_methods_supported: "S256" }, OP_SUPPORT],
    ["the token endpoint is missing", { token_endpoint: undefined }, MISCONFIGURED],
    [
      "the authorization endpoint is not an http(s) URL",
      { authorization_endpoint: "javascript:alert(1)" },
      MISCONFIGURED,
    ],
    ["the revocation endpoint is a number", { revocation_endpoint: 7 }, MISCONFIGURED],
  ])("'%s' -> its SPEC message, before the provider is asked", async (_why, homeserverPatch, message) => {
    bad.misbehave({ homeserverPatch });
    const err = await failure(discover(bad));
    expect(err.message).toBe(message);
    expect(bad.requests).not.toContain("GET /.well-known/openid-configuration");
  });
});

describe("the issuer's metadata", () => {
  it.each([
    [
      "omits grant_types_supported (the RFC 8414 default has no refresh_token)",
      { grant_types_supported: undefined },
    ],
    ["lists no refresh_token grant", { grant_types_supported: ["authorization_code"] }],
    ["offers neither query nor fragment", { response_modes_supported: ["form_post"] }],
  ])("'Configured OIDC OP does not support required functions' when it %s", async (_why, metadataPatch) => {
    bad.misbehave({ metadataPatch });
    expect((await failure(discover(bad))).message).toBe(OP_SUPPORT);
  });

  it("drops account management fields of the wrong type", async () => {
    bad.misbehave({
      metadataPatch: {
        account_management_uri: 42,
        account_management_actions_supported: "org.matrix.profile",
      },
      homeserverPatch: {
        account_management_uri: "javascript:alert(1)",
        account_management_actions_supported: [1],
      },
    });
    const { metadata } = await discover(bad);
    expect(metadata).not.toHaveProperty("account_management_uri");
    expect(metadata).not.toHaveProperty("account_management_actions_supported");
  });

  it("keeps well-typed account management fields, the homeserver's first", async () => {
    bad.misbehave({
      metadataPatch: { account_management_uri: `${bad.issuer}/provider-account` },
      homeserverPatch: {
        account_management_uri: `${bad.issuer}/account`,
        account_management_actions_supported: ["org.matrix.profile"],
      },
    });
    const { metadata } = await discover(bad);
    expect(metadata.account_management_uri).toBe(`${bad.issuer}/account`);
    expect(metadata["account_management_actions_supported"]).toEqual(["org.matrix.profile"]);
  });
});

describe("the response mode, where used", () => {
  it("uses fragment when the homeserver offers only fragment, and refuses query", async () => {
    bad.misbehave({ homeserverPatch: { response_modes_supported: ["fragment"] } });
    const { metadata } = await discover(bad);
    expect(metadata.response_modes_supported).toEqual(["fragment"]);
    const clientId = await registerClient(metadata, {
      clientName: "Lattice test",
      clientUri: "http://127.0.0.1:9/",
      redirectUris: [REDIRECT_URI],
    });
    const storage = new MemorySignInStateStorage();
    const base = { metadata, clientId, homeserverUrl: bad.url, redirectUri: REDIRECT_URI, storage };
    expect((await failure(startAuthorization({ ...base, responseMode: "query" }))).message).toBe(OP_SUPPORT);
    const request = await startAuthorization(base);
    expect(new URL(request.url).searchParams.get("response_mode")).toBe("fragment");
    const callback = await followAuthorization(request.url);
    expect(new URL(callback).hash).toContain("code=");
    const result = await completeAuthorization({ metadata, storage, callback });
    expect(result.idTokenClaims.iss).toBe(bad.issuer);
  });
});

describe("the bearer token response", () => {
  it.each([
    ["negative", -300],
    ["zero", 0],
    ["fractional", 0.5],
  ])("'Invalid bearer token response' when expires_in is %s", async (_what, expires_in) => {
    const { metadata } = await discover(bad);
    const { storage, callback } = await signInUntilCallback(metadata, bad.url);
    bad.misbehave({ tokenPatch: { expires_in } });
    expect((await failure(completeAuthorization({ metadata, storage, callback }))).message).toBe(
      "Invalid bearer token response",
    );
  });
});

describe("ID tokens", () => {
  let metadata: ValidatedIssuerMetadata;
  beforeAll(async () => {
    metadata = (await discover(bad)).metadata;
  });

  async function signInError(behaviour: Misbehaviour): Promise<OidcError> {
    const { storage, callback } = await signInUntilCallback(metadata, bad.url);
    bad.misbehave(behaviour);
    return failure(completeAuthorization({ metadata, storage, callback }));
  }

  it("allows 5 minutes of clock skew on iat", () => {
    expect(ID_TOKEN_CLOCK_SKEW_S).toBe(300);
  });

  it("'Invalid ID token' at sign-in when iat is more than 5 minutes ahead", async () => {
    const iat = Math.floor(Date.now() / 1000) + ID_TOKEN_CLOCK_SKEW_S + 60;
    expect((await signInError({ idTokenPatch: { iat, exp: iat + 300 } })).message).toBe("Invalid ID token");
  });

  it("accepts an iat within the skew", async () => {
    const iat = Math.floor(Date.now() / 1000) + 60;
    const { storage, callback } = await signInUntilCallback(metadata, bad.url);
    bad.misbehave({ idTokenPatch: { iat, exp: iat + 300 } });
    const result = await completeAuthorization({ metadata, storage, callback });
    expect(result.idTokenClaims.iat).toBe(iat);
  });

  it("'Invalid ID token' at sign-in when its kid is not in the JWKS", async () => {
    expect((await signInError({ unknownKid: true })).message).toBe("Invalid ID token");
  });

  it.each([
    ["signed with another key under the published kid", { foreignKey: true }],
    ["signed under a kid the JWKS does not list", { unknownKid: true }],
    [
      "issued more than 5 minutes in the future",
      {
        idTokenPatch: {
          iat: Math.floor(Date.now() / 1000) + 3600,
          exp: Math.floor(Date.now() / 1000) + 7200,
        },
      },
    ],
  ])("'Invalid ID token' on refresh when the new one is %s", async (_why, behaviour: Misbehaviour) => {
    const first = await signIn(metadata, bad.url);
    bad.misbehave(behaviour);
    const err = await failure(
      refreshAccessToken({ metadata, clientId: first.clientId, refreshToken: first.tokens.refresh_token }),
    );
    expect(err.message).toBe("Invalid ID token");
  });

  it("'Invalid ID token' on refresh when the new one names another subject than the sign-in's", async () => {
    const first = await signIn(metadata, bad.url);
    const params = {
      metadata,
      clientId: first.clientId,
      refreshToken: first.tokens.refresh_token,
      expectedSubject: first.idTokenClaims.sub,
    };
    bad.misbehave({ idTokenPatch: { sub: "@mallory:localhost" } });
    expect((await failure(refreshAccessToken(params))).message).toBe("Invalid ID token");
    bad.misbehave({});
    expect((await refreshAccessToken(params)).idTokenClaims?.sub).toBe(first.idTokenClaims.sub);
  });

  it("accepts a refresh whose new ID token verifies", async () => {
    const first = await signIn(metadata, bad.url);
    const refreshed = await refreshAccessToken({
      metadata,
      clientId: first.clientId,
      refreshToken: first.tokens.refresh_token,
    });
    expect(refreshed.tokens.id_token).toBeDefined();
  });
});

describe("the legacy m.authentication well-known", () => {
  it("names the issuer when auth_metadata and auth_issuer are unrecognised; its account URL is kept", async () => {
    bad.misbehave({ homeserver: "well-known-only" });
    const { issuer, metadata } = await discover(bad);
    expect(issuer).toBe(bad.issuer);
    expect(metadata.account_management_uri).toBe(`${bad.issuer}/account`);
    expect(bad.requests).toContain("GET /.well-known/matrix/client");
  });

  it("is read under MSC2965's unstable name too", async () => {
    bad.misbehave({
      homeserver: "well-known-only",
      wellKnown: { "org.matrix.msc2965.authentication": { issuer: bad.issuer } },
    });
    expect((await discover(bad)).issuer).toBe(bad.issuer);
  });

  it.each([
    ["has no m.authentication", { "m.homeserver": { base_url: "http://127.0.0.1:9" } }],
    ["is absent", "absent" as const],
  ])("'OIDC authentication not supported' when the well-known %s", async (_why, wellKnown) => {
    bad.misbehave({ homeserver: "well-known-only", wellKnown });
    expect((await failure(discover(bad))).message).toBe("OIDC authentication not supported");
  });

  it("reads the well-known document the caller already has (the server name's) instead of fetching one", async () => {
    bad.misbehave({ homeserver: "well-known-only", wellKnown: "absent" });
    const http = createHttpClient({ baseUrl: bad.url, retry: false });
    const { issuer } = await discoverOidc(http, {
      wellKnown: { "m.authentication": { issuer: bad.issuer } },
    });
    expect(issuer).toBe(bad.issuer);
    expect(bad.requests).not.toContain("GET /.well-known/matrix/client");
  });

  it("'OIDC is misconfigured' when m.authentication names no valid issuer", async () => {
    bad.misbehave({ homeserver: "well-known-only", wellKnown: { "m.authentication": { issuer: 42 } } });
    expect((await failure(discover(bad))).message).toBe(MISCONFIGURED);
  });
});
