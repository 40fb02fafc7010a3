/**
 * Registration over HTTP: UIA flows and stages, guests, availability,
 * inhibit_login, and hostile bodies.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "../../src";
import type { TestServerHandle } from "../../src";
import { call, validateAgainstSpec, login, register } from "./helpers";

const R = "/_matrix/client/v3/register";
let specErrors: () => string[] = () => [];

describe("registration with the default dummy flow", () => {
  let server: TestServerHandle;
  beforeAll(async () => {
    server = await startTestServer({ seed: 3 });
    specErrors = validateAgainstSpec(server);
  });
  afterAll(async () => {
    await server.stop();
    expect(specErrors()).toEqual([]);
  });

  it("answers 401 with the flows and a session, then registers with the dummy stage", async () => {
    const first = await call(server, "POST", R, { username: "dora", password: "pw" });
    expect(first.status).toBe(401);
    expect(first.body["flows"]).toEqual([{ stages: ["m.login.dummy"] }]);
    expect(typeof first.body["session"]).toBe("string");
    expect(first.body["errcode"]).toBeUndefined();
    const done = await call(server, "POST", R, {
      username: "dora",
      password: "pw",
      auth: { type: "m.login.dummy", session: first.body["session"] },
    });
    expect(done.status).toBe(200);
    expect(done.body["user_id"]).toBe("@dora:localhost");
    expect(typeof done.body["access_token"]).toBe("string");
    const who = await call(
      server,
      "GET",
      "/_matrix/client/v3/account/whoami",
      undefined,
      done.body["access_token"] as string,
    );
    expect(who.body).toEqual({
      user_id: "@dora:localhost",
      device_id: done.body["device_id"],
      is_guest: false,
    });
    expect((await login(server, "dora", "pw")).status).toBe(200);
  });

  it("refuses taken and invalid user names, before and through /register/available", async () => {
    await register(server, "taken");
    expect(
      await call(server, "POST", R, { username: "taken", auth: { type: "m.login.dummy" } }),
    ).toMatchObject({
      status: 400,
      body: { errcode: "M_USER_IN_USE" },
    });
    for (const bad of ["UPPER", "has space", "_under", "12345", "x".repeat(300), "__proto__"]) {
      const res = await call(server, "GET", `${R}/available?username=${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBe(400);
      expect(res.body["errcode"], bad).toBe("M_INVALID_USERNAME");
    }
    expect(await call(server, "GET", `${R}/available?username=taken`)).toMatchObject({
      status: 400,
      body: { errcode: "M_USER_IN_USE" },
    });
    expect(await call(server, "GET", `${R}/available?username=free.name`)).toEqual({
      status: 200,
      body: { available: true },
    });
    expect((await call(server, "GET", `${R}/available`)).body["errcode"]).toBe("M_MISSING_PARAM");
  });

  it("registers without logging in when inhibit_login is set", async () => {
    const res = await call(server, "POST", R, {
      username: "quiet",
      password: "pw",
      inhibit_login: true,
      auth: { type: "m.login.dummy" },
    });
    expect(res).toEqual({ status: 200, body: { user_id: "@quiet:localhost" } });
  });

  it("registers guests with kind=guest, and keeps them out of non-guest endpoints", async () => {
    const res = await call(server, "POST", `${R}?kind=guest`, {});
    expect(res.status).toBe(200);
    const token = res.body["access_token"] as string;
    expect(res.body["user_id"]).toMatch(/^@[0-9]+:localhost$/);
    const who = await call(server, "GET", "/_matrix/client/v3/account/whoami", undefined, token);
    expect(who.body["is_guest"]).toBe(true);
    expect(
      (await call(server, "GET", "/_matrix/client/v3/account/3pid", undefined, token)).body["errcode"],
    ).toBe("M_GUEST_ACCESS_FORBIDDEN");
    // The guest access module's endpoints stay open: devices, keys, display name.
    expect((await call(server, "GET", "/_matrix/client/v3/devices", undefined, token)).status).toBe(200);
    expect(
      (await call(server, "POST", "/_matrix/client/v3/keys/query", { device_keys: {} }, token)).status,
    ).toBe(200);
    const me = encodeURIComponent(res.body["user_id"] as string);
    const name = await call(
      server,
      "PUT",
      `/_matrix/client/v3/profile/${me}/displayname`,
      { displayname: "Guest" },
      token,
    );
    expect(name.status).toBe(200);
    const custom = await call(
      server,
      "PUT",
      `/_matrix/client/v3/profile/${me}/m.tz`,
      { "m.tz": "UTC" },
      token,
    );
    expect(custom.body["errcode"]).toBe("M_GUEST_ACCESS_FORBIDDEN");
  });

  it("rejects hostile bodies with clear errors", async () => {
    expect((await call(server, "POST", R, "{not json")).body["errcode"]).toBe("M_NOT_JSON");
    expect((await call(server, "POST", R, "[1,2]")).body["errcode"]).toBe("M_BAD_JSON");
    expect((await call(server, "POST", R, { username: 42 })).body["errcode"]).toBe("M_INVALID_PARAM");
    expect((await call(server, "POST", R, { username: "a", auth: "x" })).body["errcode"]).toBe(
      "M_INVALID_PARAM",
    );
    expect(
      (await call(server, "POST", R, { username: "a", auth: { type: "m.login.dummy", session: "nope" } }))
        .status,
    ).toBe(400);
    expect((await call(server, "POST", `${R}?kind=admin`, {})).body["errcode"]).toBe("M_INVALID_PARAM");
    const huge = await call(server, "POST", R, {
      username: "y".repeat(100_000),
      auth: { type: "m.login.dummy" },
    });
    expect(huge.status).toBe(400);
  });
});

describe("registration with configured stages", () => {
  let server: TestServerHandle;
  beforeAll(async () => {
    server = await startTestServer({
      seed: 4,
      registrationFlows: [
        ["m.login.recaptcha", "m.login.terms"],
        ["m.login.email.identity", "m.login.terms", "m.login.registration_token"],
      ],
      registrationTokens: ["let-me-in"],
    });
    specErrors = validateAgainstSpec(server);
  });
  afterAll(async () => {
    await server.stop();
    expect(specErrors()).toEqual([]);
  });

  it("advertises the flows with terms and recaptcha params; recaptcha cannot be completed", async () => {
    const first = await call(server, "POST", R, { username: "eve", password: "pw" });
    expect(first.status).toBe(401);
    expect(first.body["flows"]).toHaveLength(2);
    const params = first.body["params"] as Record<string, Record<string, unknown>>;
    const policies = params["m.login.terms"]?.["policies"] as Record<string, { en: { url: string } }>;
    const policy = await fetch(policies["privacy_policy"]?.en.url ?? "");
    expect(policy.status).toBe(200);
    expect(await policy.text()).toContain("Privacy Policy");
    expect(typeof params["m.login.recaptcha"]?.["public_key"]).toBe("string");
    const captcha = await call(server, "POST", R, {
      username: "eve",
      password: "pw",
      auth: { type: "m.login.recaptcha", response: "x", session: first.body["session"] },
    });
    expect(captcha.status).toBe(401);
    expect(captcha.body["errcode"]).toBeDefined();
  });

  it("completes email (through the outbox), terms and a registration token", async () => {
    const req = await call(server, "POST", `${R}/email/requestToken`, {
      client_secret: "secret1",
      email: "Eve@Example.org",
      send_attempt: 1,
    });
    expect(req.status).toBe(200);
    const sid = req.body["sid"] as string;
    const mail = server.outbox.last("eve@example.org");
    expect(mail?.sid).toBe(sid);
    const creds = { sid, client_secret: "secret1" };

    const first = await call(server, "POST", R, { username: "eve", password: "pw" });
    const session = first.body["session"] as string;
    const early = await call(server, "POST", R, {
      username: "eve",
      password: "pw",
      auth: { type: "m.login.email.identity", threepid_creds: creds, session },
    });
    expect(early.status).toBe(401);
    expect(early.body["errcode"]).toBe("M_UNAUTHORIZED");

    const page = await fetch(mail?.link ?? "");
    expect(page.status).toBe(200);

    const email = await call(server, "POST", R, {
      username: "eve",
      password: "pw",
      auth: { type: "m.login.email.identity", threepid_creds: creds, session },
    });
    expect(email.body["completed"]).toEqual(["m.login.email.identity"]);
    const terms = await call(server, "POST", R, {
      username: "eve",
      password: "pw",
      auth: { type: "m.login.terms", session },
    });
    expect(terms.body["completed"]).toEqual(["m.login.email.identity", "m.login.terms"]);
    const badToken = await call(server, "POST", R, {
      username: "eve",
      password: "pw",
      auth: { type: "m.login.registration_token", token: "wrong", session },
    });
    expect(badToken.status).toBe(401);
    const done = await call(server, "POST", R, {
      username: "eve",
      password: "pw",
      auth: { type: "m.login.registration_token", token: "let-me-in", session },
    });
    expect(done.status).toBe(200);
    const threepids = await call(
      server,
      "GET",
      "/_matrix/client/v3/account/3pid",
      undefined,
      done.body["access_token"] as string,
    );
    expect(threepids.body["threepids"]).toMatchObject([{ medium: "email", address: "eve@example.org" }]);
    // The address is now taken.
    const again = await call(server, "POST", `${R}/email/requestToken`, {
      client_secret: "s2",
      email: "eve@example.org",
      send_attempt: 1,
    });
    expect(again.body["errcode"]).toBe("M_THREEPID_IN_USE");
  });

  it("checks registration tokens through the validity endpoint", async () => {
    const v = "/_matrix/client/v1/register/m.login.registration_token/validity";
    expect((await call(server, "GET", `${v}?token=let-me-in`)).body).toEqual({ valid: true });
    expect((await call(server, "GET", `${v}?token=nope`)).body).toEqual({ valid: false });
  });

  it("refuses a session reused for another endpoint", async () => {
    const first = await call(server, "POST", R, { username: "mallory" });
    const res = await call(server, "POST", "/_matrix/client/v3/account/password", {
      new_password: "x",
      auth: { type: "m.login.email.identity", session: first.body["session"] },
    });
    expect(res.status).toBe(403);
  });
});
