/**
 * The identity service over HTTP: the test homeserver hands out an OpenID
 * token, the loopback identity server checks it through the homeserver's
 * federation userinfo endpoint. Registration, terms, lookups with sha256 and
 * with none, and the spec's errors each triggered by a real misbehaving
 * answer. The homeserver's access token must never reach the identity server.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startIdentityServer, startTestServer } from "@lattice/testserver";
import type { IdentityServerHandle, TestServerHandle } from "@lattice/testserver";
import { ApiError } from "../../src/api/errors";
import { IdentityService } from "../../src/auth/identity";
import { signUp } from "./helpers";
import type { SignedIn } from "./helpers";

let hs: TestServerHandle;
let is: IdentityServerHandle;
let alice: SignedIn;

beforeAll(async () => {
  hs = await startTestServer({ seed: "auth-identity" });
  is = await startIdentityServer({ homeserverUrl: hs.url });
  alice = await signUp(hs, "alice");
  await alice.session.setIdentityServerUrl(is.url);
  is.bind("email", "bob@example.org", "@bob:localhost");
  is.bind("msisdn", "447700900123", "@carol:localhost");
});
afterAll(async () => {
  await is.stop();
  await hs.stop();
});
afterEach(() => {
  is.misbehave(undefined);
  is.setAlgorithms(["sha256", "none"]);
});

function service(): IdentityService {
  return new IdentityService({
    http: alice.api,
    userId: "@alice:localhost",
    identityServerUrl: () => alice.session.identityServerUrl,
  });
}

async function ready(): Promise<IdentityService> {
  const ids = service();
  await ids.register();
  await ids.acceptTerms((await ids.terms()).map((p) => p.url));
  return ids;
}

describe("IdentityService", () => {
  it("registers with an OpenID token and learns who it is", async () => {
    const ids = service();
    expect(ids.registered).toBe(false);
    await ids.register();
    expect(ids.registered).toBe(true);
    await expect(ids.account()).resolves.toBe("@alice:localhost");
  });

  it("lists the terms, which must be accepted before lookups", async () => {
    const ids = service();
    await ids.register();
    const terms = await ids.terms();
    expect(terms).toEqual([
      { id: "privacy_policy", version: "1.0", name: "Identity Privacy Policy", url: is.policies[0]?.url },
    ]);
    const refused: unknown = await ids.hashDetails().catch((e: unknown) => e);
    expect(refused).toMatchObject({ errcode: "M_TERMS_NOT_SIGNED" });
    await ids.acceptTerms(terms.map((t) => t.url));
    expect(is.acceptedTerms("@alice:localhost")).toEqual(terms.map((t) => t.url));
    await expect(ids.hashDetails()).resolves.toEqual({
      lookup_pepper: is.pepper,
      algorithms: ["sha256", "none"],
    });
  });

  it("looks 3PIDs up with sha256", async () => {
    const ids = await ready();
    const found = await ids.lookup([
      { medium: "email", address: "Bob@Example.org" },
      { medium: "msisdn", address: "447700900123" },
      { medium: "email", address: "nobody@example.org" },
    ]);
    expect(found).toEqual([
      { medium: "email", address: "Bob@Example.org", mxid: "@bob:localhost" },
      { medium: "msisdn", address: "447700900123", mxid: "@carol:localhost" },
    ]);
  });

  it("looks 3PIDs up with none when sha256 is not offered", async () => {
    const ids = await ready();
    is.setAlgorithms(["none"]);
    const found = await ids.lookup([{ medium: "email", address: "bob@example.org" }]);
    expect(found).toEqual([{ medium: "email", address: "bob@example.org", mxid: "@bob:localhost" }]);
    const lookups = is.requests.filter((r) => r.path.endsWith("/lookup"));
    expect(lookups.length).toBeGreaterThan(0);
  });

  it("says 'unknown hash algorithm' when neither algorithm is offered", async () => {
    const ids = await ready();
    is.misbehave("unknown_algorithm");
    const err: unknown = await ids
      .lookup([{ medium: "email", address: "bob@example.org" }])
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as Error).message).toBe("unknown hash algorithm");
  });

  it("says 'Unsupported identity server: bad response' for a bad hash_details", async () => {
    const ids = await ready();
    is.misbehave("bad_hash_details");
    await expect(ids.hashDetails()).rejects.toThrow("Unsupported identity server: bad response");
    await expect(ids.lookup([{ medium: "email", address: "bob@example.org" }])).rejects.toThrow(
      "Unsupported identity server: bad response",
    );
  });

  it("says 'Unsupported identity server: bad response' when register answers no token", async () => {
    is.misbehave("bad_register");
    const ids = service();
    await expect(ids.register()).rejects.toThrow("Unsupported identity server: bad response");
    expect(ids.registered).toBe(false);
  });

  it("says 'No identity server base URL set' without an identity server", async () => {
    const ids = new IdentityService({ http: alice.api, userId: "@alice:localhost" });
    await expect(ids.register()).rejects.toThrow("No identity server base URL set");
    await expect(ids.lookup([])).rejects.toThrow("No identity server base URL set");
    await expect(ids.terms()).rejects.toThrow("No identity server base URL set");
  });

  it("validates an email on the identity server with client_secret, send_attempt and next_link", async () => {
    const ids = await ready();
    const validation = ids.emailValidation("me@example.org", { nextLink: "http://app.example/ok" });
    await validation.send();
    await validation.send();
    const mails = is.outbox.filter((m) => m.to === "me@example.org");
    expect(mails.map((m) => [m.sendAttempt, m.clientSecret, m.nextLink])).toEqual([
      [1, validation.clientSecret, "http://app.example/ok"],
      [2, validation.clientSecret, "http://app.example/ok"],
    ]);
    await expect(ids.submitValidationToken("email", validation, "wrong")).resolves.toBe(false);
    await expect(ids.submitValidationToken("email", validation, mails[1]?.token ?? "")).resolves.toBe(true);
    const sms = ids.msisdnValidation("GB", "07700900999");
    await sms.send();
    const code = is.outbox.at(-1)?.token ?? "";
    await expect(ids.submitValidationToken("msisdn", sms, code)).resolves.toBe(true);
  });

  it("logs out of the identity server", async () => {
    const ids = await ready();
    const token = ids.getAccessToken() ?? "";
    await ids.logout();
    expect(ids.registered).toBe(false);
    const res = await fetch(`${is.url}/_matrix/identity/v2/account`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(401);
  });

  it("never sends the homeserver's access token to the identity server", async () => {
    await ready();
    const homeserverToken = alice.session.getAccessToken() ?? "";
    expect(homeserverToken).not.toBe("");
    expect(is.requests.length).toBeGreaterThan(5);
    expect(is.requests.filter((r) => r.authorization?.includes(homeserverToken) === true)).toEqual([]);
  });

  it("rejects an OpenID token the homeserver does not know", async () => {
    const res = await fetch(`${is.url}/_matrix/identity/v2/account/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        access_token: "forged",
        token_type: "Bearer",
        matrix_server_name: "localhost",
        expires_in: 3600,
      }),
    });
    expect(res.status).toBe(401);
    await expect(res.json()).resolves.toMatchObject({ errcode: "M_UNAUTHORIZED" });
  });
});
