/**
 * Sessions over HTTP: login flows and identifiers, login tokens and the SSO
 * stand-in, refresh tokens with expiry and soft logout, logout, devices
 * and login/get_token.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock, startTestServer } from "../../src";
import type { TestServerHandle } from "../../src";
import { call, validateAgainstSpec, login, register } from "./helpers";

const V3 = "/_matrix/client/v3";
const clock = new ManualClock();
let server: TestServerHandle;
let specErrors: () => string[] = () => [];

beforeAll(async () => {
  server = await startTestServer({ seed: 5, clock, accessTokenLifetimeMs: 60_000 });
  specErrors = validateAgainstSpec(server);
});
afterAll(async () => {
  await server.stop();
  expect(specErrors()).toEqual([]);
});

const uiaPassword = (user: string, password: string, session?: unknown): Record<string, unknown> => ({
  type: "m.login.password",
  identifier: { type: "m.id.user", user },
  password,
  session,
});

describe("login", () => {
  it("advertises password, token and SSO with the local identity provider", async () => {
    const res = await call(server, "GET", `${V3}/login`);
    const flows = res.body["flows"] as Array<Record<string, unknown>>;
    expect(flows.map((f) => f["type"])).toEqual(["m.login.password", "m.login.token", "m.login.sso"]);
    expect(flows[2]?.["identity_providers"]).toEqual([{ id: "lattice-local", name: "Lattice test SSO" }]);
  });

  it("logs in by user id, localpart, legacy user field and email; refuses a wrong password", async () => {
    const s = await register(server, "frank", "pw-frank");
    server.ctx.accounts.addThreepid(s.userId, "email", "frank@example.org");
    for (const body of [
      { identifier: { type: "m.id.user", user: "@frank:localhost" } },
      { identifier: { type: "m.id.user", user: "Frank" } },
      { user: "frank" },
      { identifier: { type: "m.id.thirdparty", medium: "email", address: "frank@example.org" } },
    ]) {
      const res = await call(server, "POST", `${V3}/login`, {
        type: "m.login.password",
        password: "pw-frank",
        ...body,
      });
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(res.body["user_id"]).toBe("@frank:localhost");
    }
    expect(await login(server, "frank", "nope")).toMatchObject({
      status: 403,
      body: { errcode: "M_FORBIDDEN" },
    });
    expect(await login(server, "nobody", "nope")).toMatchObject({
      status: 403,
      body: { errcode: "M_FORBIDDEN" },
    });
    const bad = await call(server, "POST", `${V3}/login`, {
      type: "m.login.password",
      password: 5,
      user: "frank",
    });
    expect(bad.body["errcode"]).toBe("M_INVALID_PARAM");
    expect((await call(server, "POST", `${V3}/login`, { type: "m.login.magic" })).status).toBe(400);
  });

  it("reuses a given device id, revoking its old token", async () => {
    await register(server, "gina", "pw");
    const body = { type: "m.login.password", user: "gina", password: "pw", device_id: "FIXED" };
    const first = await call(server, "POST", `${V3}/login`, body);
    const second = await call(server, "POST", `${V3}/login`, body);
    expect(second.body["device_id"]).toBe("FIXED");
    const old = await call(
      server,
      "GET",
      `${V3}/account/whoami`,
      undefined,
      first.body["access_token"] as string,
    );
    expect(old).toMatchObject({ status: 401, body: { errcode: "M_UNKNOWN_TOKEN", soft_logout: false } });
  });

  it("issues single-use login tokens through login/get_token with UIA", async () => {
    const s = await register(server, "hank", "pw-hank");
    const path = "/_matrix/client/v1/login/get_token";
    const first = await call(server, "POST", path, {}, s.accessToken);
    expect(first.status).toBe(401);
    const done = await call(
      server,
      "POST",
      path,
      { auth: uiaPassword("hank", "pw-hank", first.body["session"]) },
      s.accessToken,
    );
    expect(done.status).toBe(200);
    const token = done.body["login_token"] as string;
    expect(done.body["expires_in_ms"]).toBe(120_000);
    const ok = await call(server, "POST", `${V3}/login`, { type: "m.login.token", token });
    expect(ok.body["user_id"]).toBe("@hank:localhost");
    const again = await call(server, "POST", `${V3}/login`, { type: "m.login.token", token });
    const late = await call(server, "POST", path, { auth: uiaPassword("hank", "pw-hank") }, s.accessToken);
    clock.advance(120_001);
    const expired = await call(server, "POST", `${V3}/login`, {
      type: "m.login.token",
      token: late.body["login_token"],
    });
    expect(expired).toMatchObject({ status: 403, body: { errcode: "M_FORBIDDEN" } });
    expect(again).toMatchObject({ status: 403, body: { errcode: "M_FORBIDDEN" } });
  });

  it("forgets a UIA session 48 hours after it began", async () => {
    const s = await register(server, "ivy", "pw-ivy");
    const path = "/_matrix/client/v1/login/get_token";
    const kept = (await call(server, "POST", path, {}, s.accessToken)).body["session"];
    const lost = (await call(server, "POST", path, {}, s.accessToken)).body["session"];
    clock.advance(48 * 3_600_000 - 1);
    const inTime = await call(
      server,
      "POST",
      path,
      { auth: uiaPassword("ivy", "pw-ivy", kept) },
      s.accessToken,
    );
    expect(inTime.status).toBe(200);
    clock.advance(1);
    const late = await call(
      server,
      "POST",
      path,
      { auth: uiaPassword("ivy", "pw-ivy", lost) },
      s.accessToken,
    );
    expect(late).toMatchObject({
      status: 400,
      body: { errcode: "M_UNKNOWN", error: `Unknown session ID: ${String(lost)}` },
    });
  });

  it("completes SSO through the local page with a loginToken on the redirect URL", async () => {
    const redirectUrl = "http://127.0.0.1:9/app?x=1";
    const start = await fetch(
      `${server.url}${V3}/login/sso/redirect?redirectUrl=${encodeURIComponent(redirectUrl)}`,
      {
        redirect: "manual",
      },
    );
    expect(start.status).toBe(302);
    const page = await fetch(start.headers.get("location") ?? "");
    const html = await page.text();
    expect(html).toContain("<form");
    const action = /action="([^"]+)"/.exec(html)?.[1] ?? "";
    const done = await fetch(
      `${server.url}${action}?redirectUrl=${encodeURIComponent(redirectUrl)}&user=ivy`,
      {
        redirect: "manual",
      },
    );
    expect(done.status).toBe(302);
    const target = new URL(done.headers.get("location") ?? "");
    expect(target.origin + target.pathname).toBe("http://127.0.0.1:9/app");
    expect(target.searchParams.get("x")).toBe("1");
    const res = await call(server, "POST", `${V3}/login`, {
      type: "m.login.token",
      token: target.searchParams.get("loginToken"),
    });
    expect(res.body["user_id"]).toBe("@ivy:localhost");
    expect((await call(server, "GET", `${V3}/login/sso/redirect`)).body["errcode"]).toBe("M_MISSING_PARAM");
    const js = await call(
      server,
      "GET",
      `${V3}/login/sso/redirect?redirectUrl=${encodeURIComponent("javascript:alert(1)")}`,
    );
    expect(js.body["errcode"]).toBe("M_INVALID_PARAM");
  });
});

describe("refresh tokens and soft logout", () => {
  it("expires access tokens, answers soft_logout, and rotates on /refresh (v3 and v1)", async () => {
    await register(server, "jack", "pw");
    const res = await call(server, "POST", `${V3}/login`, {
      type: "m.login.password",
      user: "jack",
      password: "pw",
      refresh_token: true,
    });
    expect(res.body["expires_in_ms"]).toBe(60_000);
    const access = res.body["access_token"] as string;
    const refresh = res.body["refresh_token"] as string;
    expect((await call(server, "GET", `${V3}/account/whoami`, undefined, access)).status).toBe(200);
    clock.advance(60_001);
    expect(await call(server, "GET", `${V3}/account/whoami`, undefined, access)).toMatchObject({
      status: 401,
      body: { errcode: "M_UNKNOWN_TOKEN", soft_logout: true },
    });
    const r1 = await call(server, "POST", `${V3}/refresh`, { refresh_token: refresh });
    expect(r1.status).toBe(200);
    expect(r1.body["refresh_token"]).not.toBe(refresh);
    expect(
      (await call(server, "GET", `${V3}/account/whoami`, undefined, r1.body["access_token"] as string))
        .status,
    ).toBe(200);
    expect((await call(server, "POST", `${V3}/refresh`, { refresh_token: refresh })).body["errcode"]).toBe(
      "M_UNKNOWN_TOKEN",
    );
    const r2 = await call(server, "POST", "/_matrix/client/v1/refresh", {
      refresh_token: r1.body["refresh_token"],
    });
    expect(r2.status).toBe(200);
  });

  it("soft-logs-out every token when the handle expires them", async () => {
    const s = await register(server, "kate", "pw");
    server.expireAccessTokens(s.userId);
    expect(
      (await call(server, "GET", `${V3}/account/whoami`, undefined, s.accessToken)).body["soft_logout"],
    ).toBe(true);
  });
});

describe("logout and devices", () => {
  it("lists, renames and deletes devices (UIA), and logs out", async () => {
    const a = await register(server, "liam", "pw-liam");
    const b = await login(server, "liam", "pw-liam");
    const bToken = b.body["access_token"] as string;
    const bDevice = b.body["device_id"] as string;
    const list = await call(server, "GET", `${V3}/devices`, undefined, a.accessToken);
    expect((list.body["devices"] as unknown[]).length).toBe(2);
    expect(
      (await call(server, "PUT", `${V3}/devices/${bDevice}`, { display_name: "Laptop" }, a.accessToken))
        .status,
    ).toBe(200);
    expect(
      (await call(server, "GET", `${V3}/devices/${bDevice}`, undefined, a.accessToken)).body["display_name"],
    ).toBe("Laptop");
    expect((await call(server, "GET", `${V3}/devices/__proto__`, undefined, a.accessToken)).status).toBe(404);
    expect(
      (await call(server, "PUT", `${V3}/devices/NOPE`, { display_name: "x" }, a.accessToken)).status,
    ).toBe(404);

    const first = await call(server, "DELETE", `${V3}/devices/${bDevice}`, {}, a.accessToken);
    expect(first.status).toBe(401);
    const wrong = await call(
      server,
      "DELETE",
      `${V3}/devices/${bDevice}`,
      { auth: uiaPassword("liam", "bad", first.body["session"]) },
      a.accessToken,
    );
    expect(wrong).toMatchObject({ status: 401, body: { errcode: "M_FORBIDDEN" } });
    const other = await call(
      server,
      "DELETE",
      `${V3}/devices/${bDevice}`,
      { auth: uiaPassword("frank", "pw-frank", first.body["session"]) },
      a.accessToken,
    );
    expect(other.status).toBe(401);
    const ok = await call(
      server,
      "DELETE",
      `${V3}/devices/${bDevice}`,
      { auth: uiaPassword("liam", "pw-liam", first.body["session"]) },
      a.accessToken,
    );
    expect(ok.status).toBe(200);
    expect((await call(server, "GET", `${V3}/account/whoami`, undefined, bToken)).status).toBe(401);

    const c = await login(server, "liam", "pw-liam");
    const del = await call(
      server,
      "POST",
      `${V3}/delete_devices`,
      { devices: [c.body["device_id"]], auth: uiaPassword("liam", "pw-liam") },
      a.accessToken,
    );
    expect(del.status).toBe(200);
    expect(
      (await call(server, "POST", `${V3}/delete_devices`, { devices: "x" }, a.accessToken)).body["errcode"],
    ).toBe("M_INVALID_PARAM");

    expect((await call(server, "POST", `${V3}/logout`, {}, a.accessToken)).status).toBe(200);
    expect((await call(server, "GET", `${V3}/account/whoami`, undefined, a.accessToken)).status).toBe(401);
  });

  it("logs out every device with logout/all", async () => {
    const a = await register(server, "mia", "pw");
    const b = await login(server, "mia", "pw");
    expect((await call(server, "POST", `${V3}/logout/all`, {}, a.accessToken)).status).toBe(200);
    expect(
      (await call(server, "GET", `${V3}/account/whoami`, undefined, b.body["access_token"] as string)).status,
    ).toBe(401);
  });

  it("answers M_MISSING_TOKEN without a token", async () => {
    expect((await call(server, "GET", `${V3}/devices`)).body["errcode"]).toBe("M_MISSING_TOKEN");
  });
});
