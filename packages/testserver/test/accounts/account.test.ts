/**
 * The account over HTTP: password change and reset, deactivation, and
 * third-party identifiers with the fake outbox.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "../../src";
import type { TestServerHandle } from "../../src";
import { call, validateAgainstSpec, login, register } from "./helpers";

const V3 = "/_matrix/client/v3";
let server: TestServerHandle;
let specErrors: () => string[] = () => [];

beforeAll(async () => {
  server = await startTestServer({ seed: 11 });
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

describe("password and deactivation", () => {
  it("changes the password and logs out the other devices by default", async () => {
    const a = await register(server, "noah", "old-pw");
    const b = await login(server, "noah", "old-pw");
    const res = await call(
      server,
      "POST",
      `${V3}/account/password`,
      { new_password: "new-pw", auth: uiaPassword("noah", "old-pw") },
      a.accessToken,
    );
    expect(res.status).toBe(200);
    expect((await call(server, "GET", `${V3}/account/whoami`, undefined, a.accessToken)).status).toBe(200);
    expect(
      (await call(server, "GET", `${V3}/account/whoami`, undefined, b.body["access_token"] as string)).status,
    ).toBe(401);
    expect((await login(server, "noah", "old-pw")).status).toBe(403);
    const c = await login(server, "noah", "new-pw");
    expect(c.status).toBe(200);
    await call(
      server,
      "POST",
      `${V3}/account/password`,
      { new_password: "pw3", logout_devices: false, auth: uiaPassword("noah", "new-pw") },
      a.accessToken,
    );
    expect(
      (await call(server, "GET", `${V3}/account/whoami`, undefined, c.body["access_token"] as string)).status,
    ).toBe(200);
  });

  it("resets a forgotten password through the email outbox", async () => {
    const s = await register(server, "olga", "forgotten");
    server.ctx.accounts.addThreepid(s.userId, "email", "olga@example.org");
    const req = await call(server, "POST", `${V3}/account/password/email/requestToken`, {
      client_secret: "cs",
      email: "olga@example.org",
      send_attempt: 1,
    });
    expect(req.status).toBe(200);
    const unknown = await call(server, "POST", `${V3}/account/password/email/requestToken`, {
      client_secret: "cs",
      email: "who@example.org",
      send_attempt: 1,
    });
    expect(unknown.body["errcode"]).toBe("M_THREEPID_NOT_FOUND");
    const mail = server.ctx.accounts.outbox.last("olga@example.org");
    const submit = await call(server, "POST", "/_lattice/submit_token", {
      sid: mail?.sid,
      client_secret: "cs",
      token: mail?.token,
    });
    expect(submit.body).toEqual({ success: true });
    const res = await call(server, "POST", `${V3}/account/password`, {
      new_password: "remembered",
      auth: { type: "m.login.email.identity", threepid_creds: { sid: mail?.sid, client_secret: "cs" } },
    });
    expect(res.status).toBe(200);
    expect((await login(server, "olga", "remembered")).status).toBe(200);
    expect((await call(server, "GET", `${V3}/account/whoami`, undefined, s.accessToken)).status).toBe(401);
  });

  it("deactivates with UIA and erase, after which login fails and the profile is gone", async () => {
    const s = await register(server, "pete", "pw");
    const res = await call(
      server,
      "POST",
      `${V3}/account/deactivate`,
      { erase: true, auth: uiaPassword("pete", "pw") },
      s.accessToken,
    );
    expect(res).toEqual({ status: 200, body: { id_server_unbind_result: "success" } });
    expect(await login(server, "pete", "pw")).toMatchObject({
      status: 403,
      body: { errcode: "M_USER_DEACTIVATED" },
    });
    expect((await call(server, "GET", `${V3}/profile/@pete:localhost`)).status).toBe(404);
    expect((await call(server, "GET", `${V3}/register/available?username=pete`)).body["errcode"]).toBe(
      "M_USER_IN_USE",
    );
  });

  it("answers M_USER_DEACTIVATED to any password and to a login token of a deactivated account", async () => {
    const s = await register(server, "ruth", "pw-ruth");
    const path = "/_matrix/client/v1/login/get_token";
    const issued = await call(server, "POST", path, { auth: uiaPassword("ruth", "pw-ruth") }, s.accessToken);
    expect(issued.status).toBe(200);
    await call(
      server,
      "POST",
      `${V3}/account/deactivate`,
      { auth: uiaPassword("ruth", "pw-ruth") },
      s.accessToken,
    );
    for (const [user, password] of [
      ["ruth", "pw-ruth"],
      ["@Ruth:localhost", "wrong"],
    ] as const) {
      expect(await login(server, user, password)).toMatchObject({
        status: 403,
        body: { errcode: "M_USER_DEACTIVATED", error: "This account has been deactivated" },
      });
    }
    const token = await call(server, "POST", `${V3}/login`, {
      type: "m.login.token",
      token: issued.body["login_token"],
    });
    expect(token).toMatchObject({ status: 403, body: { errcode: "M_USER_DEACTIVATED" } });
    expect((await login(server, "ruthless", "pw-ruth")).body["errcode"]).toBe("M_FORBIDDEN");
  });
});

describe("3PIDs", () => {
  it("adds with UIA, lists, binds, unbinds and deletes; msisdn codes arrive in the outbox", async () => {
    const s = await register(server, "quinn", "pw");
    const req = await call(server, "POST", `${V3}/account/3pid/msisdn/requestToken`, {
      client_secret: "c1",
      country: "GB",
      phone_number: "07700 900123",
      send_attempt: 1,
    });
    expect(req.status).toBe(200);
    expect(typeof req.body["submit_url"]).toBe("string");
    const sms = server.ctx.accounts.outbox.last("447700900123");
    expect(sms?.medium).toBe("msisdn");
    const early = await call(
      server,
      "POST",
      `${V3}/account/3pid/add`,
      { client_secret: "c1", sid: req.body["sid"], auth: uiaPassword("quinn", "pw") },
      s.accessToken,
    );
    expect(early.body["errcode"]).toBe("M_THREEPID_AUTH_FAILED");
    const wrong = await call(server, "POST", new URL(req.body["submit_url"] as string).pathname, {
      sid: req.body["sid"],
      client_secret: "c1",
      token: "000",
    });
    expect(wrong.body).toEqual({ success: false });
    await call(server, "POST", new URL(req.body["submit_url"] as string).pathname, {
      sid: req.body["sid"],
      client_secret: "c1",
      token: sms?.token,
    });
    const added = await call(
      server,
      "POST",
      `${V3}/account/3pid/add`,
      { client_secret: "c1", sid: req.body["sid"], auth: uiaPassword("quinn", "pw") },
      s.accessToken,
    );
    expect(added.status).toBe(200);
    const list = await call(server, "GET", `${V3}/account/3pid`, undefined, s.accessToken);
    expect(list.body["threepids"]).toMatchObject([{ medium: "msisdn", address: "447700900123" }]);
    const bind = await call(
      server,
      "POST",
      `${V3}/account/3pid/bind`,
      { client_secret: "c1", sid: req.body["sid"], id_server: "id.example.org", id_access_token: "t" },
      s.accessToken,
    );
    expect(bind.status).toBe(200);
    const unbind = await call(
      server,
      "POST",
      `${V3}/account/3pid/unbind`,
      { medium: "msisdn", address: "447700900123" },
      s.accessToken,
    );
    expect(unbind.body).toEqual({ id_server_unbind_result: "success" });
    const del = await call(
      server,
      "POST",
      `${V3}/account/3pid/delete`,
      { medium: "msisdn", address: "447700900123" },
      s.accessToken,
    );
    expect(del.status).toBe(200);
    expect(
      (await call(server, "GET", `${V3}/account/3pid`, undefined, s.accessToken)).body["threepids"],
    ).toEqual([]);
    const bad = await call(server, "POST", `${V3}/account/3pid/email/requestToken`, {
      client_secret: "bad secret!",
      email: "a@b.c",
      send_attempt: 1,
    });
    expect(bad.body["errcode"]).toBe("M_INVALID_PARAM");
  });

  it("does not resend for the same send_attempt", async () => {
    const before = server.ctx.accounts.outbox.messages.length;
    const body = { client_secret: "same", email: "same@example.org", send_attempt: 1 };
    const a = await call(server, "POST", `${V3}/register/email/requestToken`, body);
    const b = await call(server, "POST", `${V3}/register/email/requestToken`, body);
    expect(a.body["sid"]).toBe(b.body["sid"]);
    expect(server.ctx.accounts.outbox.messages.length).toBe(before + 1);
  });
});
