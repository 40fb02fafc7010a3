/**
 * Sign-in over HTTP against the test homeserver: password with a user id,
 * the login flows, SSO (redirect, the local SSO page, the return URL's
 * loginToken), login/get_token through interactive auth, and logout.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { whoami, getThreepids } from "../../src/api/account";
import {
  completeSsoLogin,
  getLoginFlows,
  getLoginToken,
  loginTokenFromUrl,
  loginWithPassword,
  loginWithToken,
  signOut,
  signOutEverywhere,
  ssoLoginUrl,
} from "../../src/auth/login";
import { AuthError } from "../../src/auth/errors";
import { MatrixError } from "../../src/http/errors";
import { httpFor, sessionFor, signUp } from "./helpers";

let server: TestServerHandle;

beforeAll(async () => {
  server = await startTestServer({ seed: "auth-login" });
});
afterAll(async () => {
  await server.stop();
});

describe("password login", () => {
  it("signs in with a user id and asks for a refresh token", async () => {
    await signUp(server, "pat", { password: "secret-pat" });
    const data = await loginWithPassword(httpFor(server), { userId: "@pat:localhost" }, "secret-pat", {
      initialDeviceDisplayName: "Test device",
    });
    expect(data.userId).toBe("@pat:localhost");
    expect(data.homeserverUrl).toBe(server.url);
    expect(data.refreshToken).toEqual(expect.any(String));
    expect(data.expiresAt).toBeGreaterThan(Date.now());
    const { api, session } = await sessionFor(data);
    expect(session.state.getSnapshot()).toMatchObject({ kind: "signed_in", userId: "@pat:localhost" });
    await expect(whoami(api)).resolves.toMatchObject({ user_id: "@pat:localhost", device_id: data.deviceId });
    const devices = server.ctx.accounts.devicesOf("@pat:localhost").map((d) => d.deviceId);
    expect(devices).toContain(data.deviceId);
  });

  it("signs in with a localpart too", async () => {
    const data = await loginWithPassword(httpFor(server), { userId: "pat" }, "secret-pat");
    expect(data.userId).toBe("@pat:localhost");
  });

  it("rejects a wrong password with the server's M_FORBIDDEN", async () => {
    const err: unknown = await loginWithPassword(httpFor(server), { userId: "pat" }, "nope").catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(MatrixError);
    expect((err as MatrixError).errcode).toBe("M_FORBIDDEN");
  });

  it("lists the login flows", async () => {
    const flows = await getLoginFlows(httpFor(server));
    expect(flows.flows.map((f) => f.type)).toEqual(
      expect.arrayContaining(["m.login.password", "m.login.token", "m.login.sso"]),
    );
  });
});

describe("SSO", () => {
  it("builds the redirect URL and completes the return with m.login.token", async () => {
    const redirectUrl = "http://app.example/after-sso?x=1";
    const start = ssoLoginUrl(server.url, redirectUrl, { idpId: "lattice-local" });
    expect(start).toBe(
      `${server.url}/_matrix/client/v3/login/sso/redirect/lattice-local?redirectUrl=${encodeURIComponent(redirectUrl)}`,
    );
    // The browser's part: follow the redirect to the local SSO page and submit its form.
    const first = await fetch(start, { redirect: "manual" });
    expect(first.status).toBe(302);
    const page = new URL(first.headers.get("location") ?? "", server.url);
    const complete = new URL("/_lattice/sso/complete", server.url);
    complete.searchParams.set("redirectUrl", page.searchParams.get("redirectUrl") ?? "");
    complete.searchParams.set("user", "ssouser");
    const back = await fetch(complete, { redirect: "manual" });
    const returnUrl = back.headers.get("location") ?? "";
    expect(returnUrl.startsWith("http://app.example/after-sso?x=1&loginToken=")).toBe(true);
    expect(loginTokenFromUrl(returnUrl)).toEqual(expect.any(String));

    const data = await completeSsoLogin(httpFor(server), returnUrl);
    expect(data.userId).toBe("@ssouser:localhost");
    // A login token is single-use.
    await expect(completeSsoLogin(httpFor(server), returnUrl)).rejects.toBeInstanceOf(MatrixError);
  });

  it("refuses a return URL without a loginToken", async () => {
    const err: unknown = await completeSsoLogin(httpFor(server), "http://app.example/?error=x").catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AuthError);
    expect((err as AuthError).code).toBe("MISSING_LOGIN_TOKEN");
  });
});

describe("login/get_token", () => {
  it("runs interactive auth with the password and the token signs in a new device", async () => {
    const { api, session } = await signUp(server, "gina", { password: "pw-gina" });
    const asked: Array<string | undefined> = [];
    const res = await getLoginToken(api, {
      identifier: { type: "m.id.user", user: "@gina:localhost" },
      callbacks: {
        askPassword: ({ error }) => {
          asked.push(error);
          return Promise.resolve(asked.length === 1 ? "wrong" : "pw-gina");
        },
      },
    });
    expect(asked).toEqual([undefined, "Invalid username or password"]);
    expect(res.expires_in_ms).toBeGreaterThan(0);
    const other = await loginWithToken(httpFor(server), res.login_token);
    expect(other.userId).toBe("@gina:localhost");
    expect(other.deviceId).not.toBe(session.deviceId);
  });
});

describe("logout", () => {
  it("signs out this device and clears the session", async () => {
    const { api, session, storage } = await signUp(server, "lou");
    const deviceId = session.deviceId ?? "";
    await signOut(api, session);
    expect(session.state.getSnapshot()).toEqual({ kind: "signed_out", reason: "logout" });
    expect(storage.load()).toBeNull();
    expect(server.ctx.accounts.devicesOf("@lou:localhost").map((d) => d.deviceId)).not.toContain(deviceId);
  });

  it("signs out everywhere", async () => {
    const first = await signUp(server, "eve2", { password: "pw" });
    await loginWithPassword(httpFor(server), { userId: "eve2" }, "pw");
    expect(server.ctx.accounts.devicesOf("@eve2:localhost")).toHaveLength(2);
    await signOutEverywhere(first.api, first.session);
    expect(server.ctx.accounts.devicesOf("@eve2:localhost")).toHaveLength(0);
    await expect(getThreepids(httpFor(server))).rejects.toBeInstanceOf(MatrixError);
  });
});
