/**
 * Discovery and registration failures, each from a real misbehaving answer
 * over loopback HTTP: which SPEC.md §8 message each one gives
 * (docs/architecture/0005-oidc.md has the table).
 */
import { startMisbehavingProvider } from "@lattice/testserver/oidc";
import type { MisbehavingProvider } from "@lattice/testserver/oidc";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { DISCOVERY_TIMEOUT_MS, OidcError, registerClient } from "../../../src/auth/oidc";
import { discover, REDIRECT_URI } from "./support";

let bad: MisbehavingProvider;

beforeAll(async () => {
  bad = await startMisbehavingProvider();
});
afterEach(() => {
  bad.misbehave({});
  bad.requests.length = 0;
  vi.useRealTimers();
});
afterAll(async () => {
  await bad.stop();
});

async function discoveryError(): Promise<OidcError> {
  const err: unknown = await discover(bad).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof OidcError)) throw new Error(`expected an OidcError, got ${String(err)}`);
  return err;
}

describe("discovery", () => {
  it("works when the metadata is right", async () => {
    const { issuer, metadata } = await discover(bad);
    expect(issuer).toBe(bad.issuer);
    expect(metadata.token_endpoint).toBe(`${bad.issuer}/token`);
    expect(bad.requests).toEqual([
      "GET /_matrix/client/v1/auth_metadata",
      "GET /.well-known/openid-configuration",
    ]);
  });

  it("falls back to the unstable auth_issuer on older servers", async () => {
    bad.misbehave({ homeserver: "legacy-only" });
    const { issuer } = await discover(bad);
    expect(issuer).toBe(bad.issuer);
    expect(bad.requests).toContain("GET /_matrix/client/unstable/org.matrix.msc2965/auth_issuer");
  });

  it("'OIDC authentication not supported' when the homeserver knows neither endpoint", async () => {
    bad.misbehave({ homeserver: "unrecognised" });
    const err = await discoveryError();
    expect(err.message).toBe("OIDC authentication not supported");
    expect(err.code).toBe("NotSupported");
    expect(bad.requests).not.toContain("GET /.well-known/openid-configuration");
  });

  it("'OIDC is misconfigured' when auth_metadata names no issuer", async () => {
    bad.misbehave({ homeserver: "no-issuer" });
    expect((await discoveryError()).message).toBe("OIDC is misconfigured");
  });

  it.each([
    ["the issuer is not the one the homeserver named", { issuer: "https://elsewhere.example.org" }],
    ["the token endpoint is missing", { token_endpoint: undefined }],
    ["the authorization endpoint is not a URL", { authorization_endpoint: "not a url" }],
    ["the revocation endpoint is missing", { revocation_endpoint: undefined }],
    ["the JWKS is missing", { jwks_uri: undefined }],
  ])("'OIDC is misconfigured' when %s", async (_why, metadataPatch) => {
    bad.misbehave({ metadataPatch });
    const err = await discoveryError();
    expect(err.message).toBe("OIDC is misconfigured");
    expect(err.cause).toBeInstanceOf(Error);
  });

  it("'OIDC is misconfigured' when the document is not an object", async () => {
    bad.misbehave({ discovery: "array" });
    expect((await discoveryError()).message).toBe("OIDC is misconfigured");
  });

  it.each([
    ["the code response type", { response_types_supported: ["id_token", "token"] }],
    ["the authorization_code grant", { grant_types_supported: ["implicit", "refresh_token"] }],
    ["S256", { code_challenge_methods_supported: ["plain"] }],
    ["PKCE at all", { code_challenge_methods_supported: undefined }],
    ["response_types_supported at all", { response_types_supported: undefined }],
    ["a code_challenge_methods_supported list", { code_challenge_methods_supported: "S256" }],
  ])("'Configured OIDC OP does not support required functions' without %s", async (_what, metadataPatch) => {
    bad.misbehave({ metadataPatch });
    expect((await discoveryError()).message).toBe("Configured OIDC OP does not support required functions");
  });

  it("takes the RFC 8414 default when grant_types_supported is absent: no refresh_token, so refused", async () => {
    bad.misbehave({ metadataPatch: { grant_types_supported: undefined } });
    expect((await discoveryError()).message).toBe("Configured OIDC OP does not support required functions");
  });

  it.each([
    ["answers 500", "server-error"],
    ["answers something that is not JSON", "not-json"],
  ] as const)("'Something went wrong with OIDC discovery' when the provider %s", async (_what, discovery) => {
    bad.misbehave({ discovery });
    expect((await discoveryError()).message).toBe("Something went wrong with OIDC discovery");
  });

  it("'Something went wrong with OIDC discovery' when the homeserver fails", async () => {
    bad.misbehave({ homeserver: "server-error" });
    expect((await discoveryError()).message).toBe("Something went wrong with OIDC discovery");
  });

  it("gives up on the openid-configuration after 5 s", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    bad.misbehave({ discovery: "hang" });
    let settled: unknown;
    const pending = discover(bad).then(
      () => (settled = "resolved"),
      (e: unknown) => (settled = e),
    );
    // Not vi.waitFor: under fake timers it advances them itself.
    while (!bad.requests.includes("GET /.well-known/openid-configuration")) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    await vi.advanceTimersByTimeAsync(DISCOVERY_TIMEOUT_MS - 1);
    expect(settled).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    await pending;
    expect(settled).toBeInstanceOf(OidcError);
    expect((settled as OidcError).message).toBe("Something went wrong with OIDC discovery");
  });
});

describe("dynamic registration", () => {
  const info = { clientName: "Lattice", clientUri: "http://127.0.0.1:9/", redirectUris: [REDIRECT_URI] };

  it("is not supported without a registration_endpoint", async () => {
    bad.misbehave({ metadataPatch: { registration_endpoint: undefined } });
    const { metadata } = await discover(bad);
    await expect(registerClient(metadata, info)).rejects.toMatchObject({
      code: "DynamicRegistrationNotSupported",
    });
    expect(bad.requests).not.toContain("POST /register");
  });

  it("fails when the provider refuses", async () => {
    const { metadata } = await discover(bad);
    bad.misbehave({ registration: "server-error" });
    await expect(registerClient(metadata, info)).rejects.toMatchObject({
      code: "DynamicRegistrationFailed",
      message: "Dynamic client registration failed",
    });
  });

  it("is invalid when the answer has no client_id string", async () => {
    const { metadata } = await discover(bad);
    bad.misbehave({ registration: "no-client-id" });
    await expect(registerClient(metadata, info)).rejects.toMatchObject({
      code: "DynamicRegistrationInvalid",
    });
  });
});
