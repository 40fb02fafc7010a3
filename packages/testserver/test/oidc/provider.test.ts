/**
 * The test OpenID provider on its own, over loopback HTTP with raw
 * requests: PKCE is required and only S256 is accepted, the login page
 * checks the homeserver's passwords, consent can be denied, and the
 * homeserver-facing token check follows issue, refresh and revocation.
 */
import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOidcTestbed, driveProviderLogin } from "../../src/oidc";
import type { OidcTestbed } from "../../src/oidc";

const REDIRECT_URI = "http://127.0.0.1:9/cb";

let bed: OidcTestbed;
let config: Record<string, unknown>;
let clientId: string;

function endpoint(name: string): string {
  const value = config[name];
  if (typeof value !== "string") throw new Error(`no ${name}`);
  return value;
}

function authorizeUrl(params: Record<string, string>): string {
  const url = new URL(endpoint("authorization_endpoint"));
  const all = {
    client_id: clientId,
    response_type: "code",
    redirect_uri: REDIRECT_URI,
    scope: "openid urn:matrix:client:api:* urn:matrix:client:device:DEV1234567",
    state: "abcdefgh",
    nonce: "12345678",
    ...params,
  };
  for (const [k, v] of Object.entries(all)) if (v !== "") url.searchParams.set(k, v);
  return url.toString();
}

function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(48).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

async function tokenRequest(
  body: Record<string, string>,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(endpoint("token_endpoint"), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ client_id: clientId, ...body }).toString(),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

async function signIn(): Promise<Record<string, unknown>> {
  const { verifier, challenge } = pkce();
  const callback = await driveProviderLogin(
    authorizeUrl({ code_challenge: challenge, code_challenge_method: "S256" }),
    {
      username: "alice",
      password: "secret",
      redirectUri: REDIRECT_URI,
    },
  );
  const code = new URL(callback).searchParams.get("code");
  expect(code).toBeTruthy();
  const { status, json } = await tokenRequest({
    grant_type: "authorization_code",
    code: code!,
    redirect_uri: REDIRECT_URI,
    code_verifier: verifier,
  });
  expect(status).toBe(200);
  return json;
}

beforeAll(async () => {
  bed = await startOidcTestbed();
  bed.createUser("alice", "secret");
  config = (await (await fetch(`${bed.provider.issuer}/.well-known/openid-configuration`)).json()) as Record<
    string,
    unknown
  >;
  const reg = await fetch(endpoint("registration_endpoint"), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: "raw",
      redirect_uris: [REDIRECT_URI],
      response_types: ["code"],
      grant_types: ["authorization_code", "refresh_token"],
      token_endpoint_auth_method: "none",
      application_type: "web",
    }),
  });
  expect(reg.status).toBe(201);
  clientId = ((await reg.json()) as { client_id: string }).client_id;
});

afterAll(async () => {
  await bed.stop();
});

describe("test OpenID provider", () => {
  it("advertises what Matrix clients need", () => {
    expect(config["issuer"]).toBe(bed.provider.issuer);
    expect(config["code_challenge_methods_supported"]).toEqual(["S256"]);
    expect(config["scopes_supported"]).toContain("urn:matrix:client:api:*");
    expect(typeof config["revocation_endpoint"]).toBe("string");
    expect(typeof config["userinfo_endpoint"]).toBe("string");
  });

  it("refuses an authorization request without PKCE, or with plain PKCE", async () => {
    const variants: Array<Record<string, string>> = [
      {},
      { code_challenge: "x".repeat(43), code_challenge_method: "plain" },
    ];
    for (const extra of variants) {
      const res = await fetch(authorizeUrl(extra), { redirect: "manual" });
      const location = res.headers.get("location");
      expect(location).not.toBeNull();
      expect(new URL(location!).searchParams.get("error")).toBe("invalid_request");
    }
  });

  it("shows the login form again on a wrong password", async () => {
    const { challenge } = pkce();
    await expect(
      driveProviderLogin(authorizeUrl({ code_challenge: challenge, code_challenge_method: "S256" }), {
        username: "alice",
        password: "wrong",
        redirectUri: REDIRECT_URI,
      }),
    ).rejects.toThrow(/Unexpected provider page \(401\)/);
  });

  it("sends access_denied back when consent is denied", async () => {
    const { challenge } = pkce();
    const callback = await driveProviderLogin(
      authorizeUrl({ code_challenge: challenge, code_challenge_method: "S256" }),
      {
        username: "alice",
        password: "secret",
        redirectUri: REDIRECT_URI,
        consent: "deny",
      },
    );
    expect(new URL(callback).searchParams.get("error")).toBe("access_denied");
  });

  it("rejects a code exchange with the wrong verifier", async () => {
    const { challenge } = pkce();
    const callback = await driveProviderLogin(
      authorizeUrl({ code_challenge: challenge, code_challenge_method: "S256" }),
      {
        username: "alice",
        password: "secret",
        redirectUri: REDIRECT_URI,
      },
    );
    const { status, json } = await tokenRequest({
      grant_type: "authorization_code",
      code: new URL(callback).searchParams.get("code")!,
      redirect_uri: REDIRECT_URI,
      code_verifier: pkce().verifier,
    });
    expect(status).toBe(400);
    expect(json["error"]).toBe("invalid_grant");
  });

  it("names the owner and device of live access tokens, and forgets revoked ones", async () => {
    const tokens = await signIn();
    const access = tokens["access_token"] as string;
    expect(bed.provider.verifyAccessToken(access)).toEqual({
      userId: "@alice:localhost",
      deviceId: "DEV1234567",
    });
    expect(bed.provider.verifyAccessToken("nope")).toBeUndefined();
    expect(bed.provider.verifyAccessToken("__proto__")).toBeUndefined();

    const refreshed = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: tokens["refresh_token"] as string,
    });
    expect(refreshed.status).toBe(200);
    const newAccess = refreshed.json["access_token"] as string;
    expect(bed.provider.verifyAccessToken(newAccess)).toEqual({
      userId: "@alice:localhost",
      deviceId: "DEV1234567",
    });

    const revoke = await fetch(endpoint("revocation_endpoint"), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        client_id: clientId,
        token: refreshed.json["refresh_token"] as string,
        token_type_hint: "refresh_token",
      }).toString(),
    });
    expect(revoke.status).toBe(200);
    expect(bed.provider.verifyAccessToken(newAccess)).toBeUndefined();
  });

  it("serves user info for its access tokens", async () => {
    const tokens = await signIn();
    const res = await fetch(endpoint("userinfo_endpoint"), {
      headers: { authorization: `Bearer ${tokens["access_token"] as string}` },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { sub: string }).sub).toBe("@alice:localhost");
  });
});
