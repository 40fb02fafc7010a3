/**
 * The account over HTTP against the test homeserver: devices (list, rename,
 * delete one or many through interactive auth), password change with
 * logout_devices, deactivation with erase, 3PIDs (validate, add through
 * interactive auth, bind, unbind, delete), pushers, whoami, capability
 * flags with spec defaults, and the admin calls.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { whoami } from "../../src/api/account";
import { AccountService, accountCapabilitiesOf } from "../../src/auth/account";
import { deactivateUser, isServerAdmin, whois } from "../../src/auth/admin";
import { DeviceService } from "../../src/auth/devices";
import { loginWithPassword } from "../../src/auth/login";
import { MatrixError } from "../../src/http/errors";
import { httpFor, sessionFor, signUp } from "./helpers";

let server: TestServerHandle;

beforeAll(async () => {
  server = await startTestServer({ seed: "auth-account" });
});
afterAll(async () => {
  await server.stop();
});

const password = (pw: string) => ({ askPassword: () => Promise.resolve(pw) });

async function extraDevice(user: string, pw: string): Promise<string> {
  return (await loginWithPassword(httpFor(server), { userId: user }, pw)).deviceId;
}

describe("devices", () => {
  it("lists, renames, and deletes one and many through interactive auth", async () => {
    const me = await signUp(server, "dev", { password: "pw-dev" });
    const a = await extraDevice("dev", "pw-dev");
    const b = await extraDevice("dev", "pw-dev");
    const c = await extraDevice("dev", "pw-dev");
    const tries: Array<string | undefined> = [];
    const devices = new DeviceService({
      http: me.api,
      userId: "@dev:localhost",
      callbacks: {
        askPassword: ({ error }) => {
          tries.push(error);
          return Promise.resolve(tries.length === 1 ? "bad" : "pw-dev");
        },
      },
    });
    expect((await devices.list()).map((d) => d.device_id).sort()).toEqual(
      [me.session.deviceId, a, b, c].sort(),
    );
    await devices.rename(a, "Kitchen tablet");
    expect((await devices.list()).find((d) => d.device_id === a)?.display_name).toBe("Kitchen tablet");

    await devices.delete(a);
    expect(tries).toEqual([undefined, "Invalid username or password"]);
    await devices.deleteMany([b, c], password("pw-dev"));
    expect((await devices.list()).map((d) => d.device_id)).toEqual([me.session.deviceId]);
  });

  it("gives up after three wrong passwords with the server's message", async () => {
    const me = await signUp(server, "dev2", { password: "pw" });
    const other = await extraDevice("dev2", "pw");
    const devices = new DeviceService({
      http: me.api,
      userId: "@dev2:localhost",
      callbacks: password("wrong"),
    });
    await expect(devices.delete(other)).rejects.toMatchObject({ code: "STAGE_FAILED" });
    expect((await devices.list()).map((d) => d.device_id)).toContain(other);
  });
});

describe("password and deactivation", () => {
  it("changes the password through interactive auth, signing out other devices", async () => {
    const me = await signUp(server, "pam", { password: "old-pw" });
    const otherDevice = await extraDevice("pam", "old-pw");
    const account = new AccountService({
      http: me.api,
      userId: "@pam:localhost",
      callbacks: password("old-pw"),
    });
    await account.changePassword("new-pw", { logoutDevices: true });
    await expect(loginWithPassword(httpFor(server), { userId: "pam" }, "old-pw")).rejects.toBeInstanceOf(
      MatrixError,
    );
    await expect(loginWithPassword(httpFor(server), { userId: "pam" }, "new-pw")).resolves.toMatchObject({
      userId: "@pam:localhost",
    });
    const devices = server.ctx.accounts.devicesOf("@pam:localhost").map((d) => d.deviceId);
    expect(devices).not.toContain(otherDevice);
    expect(devices).toContain(me.session.deviceId);
    await expect(whoami(me.api)).resolves.toMatchObject({ user_id: "@pam:localhost" });
  });

  it("deactivates with erase through interactive auth and ends the session", async () => {
    const me = await signUp(server, "dee", { password: "pw-dee" });
    const account = new AccountService({
      http: me.api,
      userId: "@dee:localhost",
      session: me.session,
      callbacks: password("pw-dee"),
    });
    await account.deactivate({ erase: true });
    expect(me.session.state.getSnapshot()).toMatchObject({ kind: "signed_out", reason: "deactivated" });
    expect(me.storage.load()).toBeNull();
    const err: unknown = await loginWithPassword(httpFor(server), { userId: "dee" }, "pw-dee").catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ httpStatus: 403 });
    expect(server.ctx.accounts.getUser("@dee:localhost")?.deactivated).toBe(true);
  });
});

describe("3PIDs", () => {
  it("validates an email, adds it through interactive auth, binds, unbinds and deletes it", async () => {
    const me = await signUp(server, "tri", { password: "pw-tri" });
    const account = new AccountService({
      http: me.api,
      userId: "@tri:localhost",
      callbacks: password("pw-tri"),
    });
    const validation = account.emailValidation("tri@example.org", "http://app.example/done");
    expect(validation.clientSecret).toMatch(/^[A-Za-z0-9]{32}$/);
    const sid = await validation.send();
    expect(validation.sendAttempt).toBe(1);
    await validation.send(); // resend: attempt 2, a second mail, same session
    expect(validation.sendAttempt).toBe(2);
    expect(validation.sid).toBe(sid);
    const mails = server.outbox.messages.filter((m) => m.to === "tri@example.org");
    expect(mails).toHaveLength(2);
    await fetch(mails[1]?.link ?? "");

    await account.addThreepid(validation);
    expect((await account.threepids()).map((t) => `${t.medium}:${t.address}`)).toEqual([
      "email:tri@example.org",
    ]);
    await account.bindThreepid(validation, "127.0.0.1:1", "id-token");
    await expect(account.unbindThreepid("email", "tri@example.org")).resolves.toEqual({
      id_server_unbind_result: "success",
    });
    expect(await account.threepids()).toHaveLength(1);
    await account.deleteThreepid("email", "tri@example.org");
    expect(await account.threepids()).toEqual([]);
  });

  it("asks for a phone validation with country and number", async () => {
    const me = await signUp(server, "phil");
    const account = new AccountService({ http: me.api, userId: "@phil:localhost" });
    const validation = account.msisdnValidation("GB", "07700 900123");
    await validation.send();
    expect(validation.submitUrl).toEqual(expect.any(String));
    expect(server.outbox.last("447700900123")?.clientSecret).toBe(validation.clientSecret);
  });
});

describe("pushers, whoami and capabilities", () => {
  it("sets, lists and removes a pusher", async () => {
    const me = await signUp(server, "pusha");
    const account = new AccountService({ http: me.api, userId: "@pusha:localhost" });
    await account.setPusher({
      app_id: "org.example.app",
      pushkey: "key-1",
      kind: "http",
      app_display_name: "App",
      device_display_name: "Phone",
      lang: "en",
      data: { url: "https://push.example.org/_matrix/push/v1/notify" },
    });
    expect((await account.pushers()).map((p) => p.pushkey)).toEqual(["key-1"]);
    await account.removePusher("org.example.app", "key-1");
    expect(await account.pushers()).toEqual([]);
    await expect(account.whoami()).resolves.toMatchObject({ user_id: "@pusha:localhost" });
  });

  it("reads capability flags from the server, with spec defaults for absent ones", async () => {
    const me = await signUp(server, "capa");
    const caps = await new AccountService({ http: me.api, userId: "@capa:localhost" }).capabilities();
    expect(caps).toMatchObject({ changePassword: true, setDisplayname: true, threepidChanges: true });
    expect(accountCapabilitiesOf({ capabilities: {} })).toEqual({
      changePassword: true,
      setDisplayname: true,
      setAvatarUrl: true,
      threepidChanges: true,
      getLoginToken: false,
    });
    expect(
      accountCapabilitiesOf({
        capabilities: { "m.change_password": { enabled: false }, "m.3pid_changes": { enabled: "no" } },
      }),
    ).toMatchObject({ changePassword: false, threepidChanges: true });
    expect(accountCapabilitiesOf(null).changePassword).toBe(true);
  });
});

describe("admin", () => {
  it("tells admins apart, looks users up and deactivates them", async () => {
    const boss = await signUp(server, "boss");
    const target = await signUp(server, "target", { password: "pw-t" });
    expect(await isServerAdmin(boss.api, "@boss:localhost")).toBe(false);
    server.makeAdmin("@boss:localhost");
    expect(await isServerAdmin(boss.api, "@boss:localhost")).toBe(true);
    const info = await whois(boss.api, "@target:localhost");
    expect(Object.keys(info.devices ?? {})).toEqual([target.session.deviceId]);
    await deactivateUser(boss.api, "@target:localhost", true);
    await expect(loginWithPassword(httpFor(server), { userId: "target" }, "pw-t")).rejects.toMatchObject({
      httpStatus: 403,
    });
    expect(server.ctx.accounts.getUser("@target:localhost")?.deactivated).toBe(true);
    // A non-admin's answer is "no", not an error.
    const plain = await sessionFor(await loginWithPassword(httpFor(server), { userId: "boss" }, "pw-boss"));
    server.makeAdmin("@boss:localhost", false);
    expect(await isServerAdmin(plain.api, "@boss:localhost")).toBe(false);
  });
});
