/**
 * The loopback identity server over raw HTTP: OpenID tokens checked with the
 * test homeserver, bearer auth, terms before lookups, hash_details and
 * lookups with both algorithms and the pepper check, email and msisdn
 * validation with send_attempt, misbehaviour switches, hostile bodies.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashAddress, startIdentityServer, startTestServer } from "../../src";
import type { IdentityServerHandle, TestServerHandle } from "../../src";
import { getSpecValidator } from "../../src/spec";
import { api, registerUser, V3 } from "../helpers";

let hs: TestServerHandle;
let is: IdentityServerHandle;
let token: string;

const IS = "/_matrix/identity/v2";

async function call(
  method: string,
  path: string,
  body?: unknown,
  bearer?: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = {};
  if (bearer !== undefined) headers["Authorization"] = `Bearer ${bearer}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(`${is.url}${IS}${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body: typeof body === "string" ? body : JSON.stringify(body) } : {}),
  });
  const json = (await res.json()) as Record<string, unknown>;
  // Every answer is checked against the official identity service definitions.
  const problems = spec.validateResponse(
    { method, path: `${IS}${path}` },
    { status: res.status, body: json, contentType: "application/json" },
  ).errors;
  const standardError = res.status >= 400 && typeof json["errcode"] === "string";
  for (const p of problems) {
    if (standardError && (p.includes("is not documented") || p.includes("documents no JSON"))) continue;
    if (p.startsWith("No operation in the Matrix spec") && (path === "" || path === "/nope")) continue;
    if (!misbehaving) mismatches.push(`${method} ${path} -> ${res.status}: ${p}`);
  }
  return { status: res.status, body: json };
}

const spec = getSpecValidator();
const mismatches: string[] = [];
/** Set while the server is told to answer wrongly. */
let misbehaving = false;

beforeAll(async () => {
  hs = await startTestServer({ seed: "identity-server" });
  is = await startIdentityServer({ homeserverUrl: hs.url, pepper: "matrixrocks" });
  const user = await registerUser(hs, "ivy");
  const openid = await api(
    hs,
    user,
    "POST",
    `${V3}/user/${encodeURIComponent(user.userId)}/openid/request_token`,
    {},
  );
  const reg = await call("POST", "/account/register", openid.body);
  expect(reg.status).toBe(200);
  token = String(reg.body["token"]);
});
afterAll(async () => {
  // Misbehaviour answers are wrong on purpose; everything else must match the spec.
  expect(mismatches).toEqual([]);
  await is.stop();
  await hs.stop();
});

describe("loopback identity server", () => {
  it("answers the status check and refuses unknown paths", async () => {
    expect((await call("GET", "")).status).toBe(200);
    expect((await call("GET", "/nope")).body).toMatchObject({ errcode: "M_UNRECOGNIZED" });
  });

  it("issues tokens only for OpenID tokens the homeserver vouches for", async () => {
    const forged = await call("POST", "/account/register", { access_token: "forged", token_type: "Bearer" });
    expect(forged.status).toBe(401);
    expect((await call("GET", "/account", undefined, token)).body).toEqual({ user_id: "@ivy:localhost" });
    expect((await call("GET", "/account", undefined, "bad")).status).toBe(401);
    expect((await call("GET", "/account")).status).toBe(401);
  });

  it("asks for the terms before lookups and records their acceptance", async () => {
    expect((await call("GET", "/hash_details", undefined, token)).body).toMatchObject({
      errcode: "M_TERMS_NOT_SIGNED",
    });
    const terms = await call("GET", "/terms");
    const url = is.policies[0]?.url;
    expect(terms.body).toEqual({
      policies: { privacy_policy: { version: "1.0", en: { name: "Identity Privacy Policy", url } } },
    });
    expect((await call("POST", "/terms", { user_accepts: "x" }, token)).status).toBe(400);
    expect((await call("POST", "/terms", { user_accepts: [url] }, token)).status).toBe(200);
    expect(is.acceptedTerms("@ivy:localhost")).toEqual([url]);
  });

  it("looks up with sha256 and none, checking algorithm and pepper", async () => {
    is.bind("email", "Zed@Example.org", "@zed:localhost");
    expect((await call("GET", "/hash_details", undefined, token)).body).toEqual({
      lookup_pepper: "matrixrocks",
      algorithms: ["sha256", "none"],
    });
    const hashed = hashAddress("zed@example.org", "email", "matrixrocks");
    const sha = await call(
      "POST",
      "/lookup",
      { algorithm: "sha256", pepper: "matrixrocks", addresses: [hashed, "x"] },
      token,
    );
    expect(sha.body).toEqual({ mappings: { [hashed]: "@zed:localhost" } });
    const none = await call(
      "POST",
      "/lookup",
      { algorithm: "none", pepper: "matrixrocks", addresses: ["zed@example.org email"] },
      token,
    );
    expect(none.body).toEqual({ mappings: { "zed@example.org email": "@zed:localhost" } });
    const pepper = await call(
      "POST",
      "/lookup",
      { algorithm: "sha256", pepper: "old", addresses: [] },
      token,
    );
    expect(pepper.body).toMatchObject({ errcode: "M_INVALID_PEPPER", lookup_pepper: "matrixrocks" });
    const algo = await call(
      "POST",
      "/lookup",
      { algorithm: "md5", pepper: "matrixrocks", addresses: [] },
      token,
    );
    expect(algo.status).toBe(400);
    is.setAlgorithms(["sha256"]);
    expect(
      (await call("POST", "/lookup", { algorithm: "none", pepper: "matrixrocks", addresses: [] }, token))
        .status,
    ).toBe(400);
    is.setAlgorithms(["sha256", "none"]);
  });

  it("misbehaves on request", async () => {
    misbehaving = true;
    is.misbehave("bad_hash_details");
    const bad = await call("GET", "/hash_details", undefined, token);
    expect(bad.body).toEqual({ algorithms: "sha256" });
    // The validator sees the bad answer for what it is.
    expect(
      spec.validateResponse(
        { method: "GET", path: `${IS}/hash_details` },
        { status: 200, body: bad.body, contentType: "application/json" },
      ).errors.length,
    ).toBeGreaterThan(0);
    is.misbehave("unknown_algorithm");
    expect((await call("GET", "/hash_details", undefined, token)).body).toMatchObject({
      algorithms: ["md5"],
    });
    is.misbehave(undefined);
    misbehaving = false;
    expect((await call("GET", "/hash_details", undefined, token)).body).toMatchObject({
      algorithms: ["sha256", "none"],
    });
  });

  it("validates an email: one message per send_attempt, then submitToken", async () => {
    const body = {
      client_secret: "secret-123",
      email: "v@example.org",
      send_attempt: 1,
      next_link: "https://app/x",
    };
    const first = await call("POST", "/validate/email/requestToken", body, token);
    const again = await call("POST", "/validate/email/requestToken", body, token);
    expect(again.body["sid"]).toBe(first.body["sid"]);
    expect(is.outbox.filter((m) => m.to === "v@example.org")).toHaveLength(1);
    await call("POST", "/validate/email/requestToken", { ...body, send_attempt: 2 }, token);
    const mails = is.outbox.filter((m) => m.to === "v@example.org");
    expect(mails.map((m) => m.sendAttempt)).toEqual([1, 2]);
    expect(mails[0]?.nextLink).toBe("https://app/x");
    const sid = String(first.body["sid"]);
    const wrong = await call(
      "POST",
      "/validate/email/submitToken",
      { sid, client_secret: "secret-123", token: "no" },
      token,
    );
    expect(wrong.body).toEqual({ success: false });
    const right = await call(
      "POST",
      "/validate/email/submitToken",
      { sid, client_secret: "secret-123", token: mails[1]?.token },
      token,
    );
    expect(right.body).toEqual({ success: true });
  });

  it("validates a phone number", async () => {
    const res = await call(
      "POST",
      "/validate/msisdn/requestToken",
      { client_secret: "s", country: "GB", phone_number: "07700900000", send_attempt: 1 },
      token,
    );
    const sms = is.outbox.at(-1);
    expect(sms?.medium).toBe("msisdn");
    expect(sms?.token).toMatch(/^\d{6}$/);
    const ok = await call(
      "POST",
      "/validate/msisdn/submitToken",
      { sid: res.body["sid"], client_secret: "s", token: sms?.token },
      token,
    );
    expect(ok.body).toEqual({ success: true });
  });

  it("never crashes on hostile bodies", async () => {
    for (const body of [
      "{",
      "[]",
      "null",
      '"x"',
      JSON.stringify({ algorithm: {}, pepper: [], addresses: [1] }),
    ]) {
      const res = await call("POST", "/lookup", body, token);
      expect(res.status).toBe(400);
    }
    const huge = await call("POST", "/terms", JSON.stringify({ user_accepts: ["x".repeat(70_000)] }), token);
    expect(huge.status).toBe(413);
    expect((await call("GET", "")).status).toBe(200);
  });
});
