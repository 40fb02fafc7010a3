/**
 * Token refresh and soft logout over HTTP against the test homeserver:
 * refreshing ahead of expiry on an injected clock, one POST /refresh for
 * many waiting requests, retry after M_UNKNOWN_TOKEN, a refused refresh
 * logging out cleanly, and soft logout followed by a re-login with the same
 * device id that keeps the local data.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ManualClock, startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import * as loginApi from "../../src/api/login";
import { whoami } from "../../src/api/account";
import { AuthError } from "../../src/auth/errors";
import { loginWithPassword, sessionDataFrom } from "../../src/auth/login";
import { DeviceService } from "../../src/auth/devices";
import { TokenRefresher } from "../../src/auth/refresh";
import { Session } from "../../src/auth/session";
import type { SessionState } from "../../src/auth/session";
import { MatrixError } from "../../src/http/errors";
import { httpFor, recordingFetch, sessionFor, signUp } from "./helpers";

let server: TestServerHandle;
let clock: ManualClock;

beforeEach(async () => {
  clock = new ManualClock();
  server = await startTestServer({ seed: "auth-refresh", clock, accessTokenLifetimeMs: 60_000 });
});
afterEach(async () => {
  await server.stop();
});

const now = (): number => clock.now();

describe("refresh", () => {
  it("refreshes ahead of expiry once for 20 concurrent requests, with no 401 seen", async () => {
    const rec = recordingFetch();
    const { api, session } = await signUp(server, "rita", { fetch: rec.fetch, now });
    const firstToken = session.getAccessToken();
    clock.advance(45_000); // within the 30 s refresh-ahead window of the 60 s token
    expect(api.due).toBe(true);
    const answers = await Promise.all(Array.from({ length: 20 }, () => whoami(api)));
    expect(answers.every((a) => a.user_id === "@rita:localhost")).toBe(true);
    expect(rec.count("POST", "/refresh")).toBe(1);
    expect(rec.requests.filter((r) => r.errcode === "M_UNKNOWN_TOKEN")).toHaveLength(0);
    expect(session.getAccessToken()).not.toBe(firstToken);
    expect(session.expiresAt).toBe(clock.now() + 60_000);
    expect(api.due).toBe(false);
  });

  it("refreshes once when 20 requests in flight meet an expired token, and retries each", async () => {
    const rec = recordingFetch();
    const { api, session } = await signUp(server, "rob", { fetch: rec.fetch, now });
    const firstToken = session.getAccessToken();
    server.expireAccessTokens("@rob:localhost"); // expired under the client's feet: the clock says fine
    expect(api.due).toBe(false);
    const answers = await Promise.all(Array.from({ length: 20 }, () => whoami(api)));
    expect(answers.map((a) => a.user_id)).toEqual(Array.from({ length: 20 }, () => "@rob:localhost"));
    expect(rec.count("POST", "/refresh")).toBe(1);
    expect(rec.requests.filter((r) => r.errcode === "M_UNKNOWN_TOKEN")).toHaveLength(20);
    expect(rec.count("GET", "/account/whoami")).toBe(40);
    expect(session.getAccessToken()).not.toBe(firstToken);
    expect(session.state.getSnapshot().kind).toBe("signed_in");
  });

  it("wires a refresher for a session in one call", async () => {
    const { session } = await signUp(server, "wes", { now });
    const api = TokenRefresher.forSession(session, { retry: false, now, refreshAheadMs: 10_000 });
    clock.advance(45_000);
    expect(api.due).toBe(false); // 15 s left, outside the 10 s window
    clock.advance(6_000);
    expect(api.due).toBe(true);
    await expect(whoami(api)).resolves.toMatchObject({ user_id: "@wes:localhost" });
    expect(api.due).toBe(false);
    // The homeserver URL shows through (homeserverUrlOf works on a session's client).
    expect(api.baseUrl).toBe(session.homeserverUrl);
  });

  it("logs out cleanly when the refresh token is refused", async () => {
    const { api, session, storage } = await signUp(server, "ria", { now, password: "pw-ria" });
    const states: SessionState[] = [];
    session.state.subscribe((s) => states.push(s));
    // Another device of the same user deletes this one: its tokens, refresh token included, are revoked.
    const other = await sessionFor(
      await loginWithPassword(httpFor(server), { userId: "ria" }, "pw-ria", { now }),
      {
        now,
      },
    );
    const devices = new DeviceService({
      http: other.api,
      userId: "@ria:localhost",
      callbacks: { askPassword: () => Promise.resolve("pw-ria") },
    });
    await devices.delete(session.deviceId ?? "");

    const err: unknown = await whoami(api).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthError);
    expect((err as AuthError).code).toBe("REFRESH_FAILED");
    expect((err as AuthError).cause).toBeInstanceOf(MatrixError);
    expect(states.at(-1)).toMatchObject({ kind: "signed_out", reason: "refresh_failed" });
    expect(storage.load()).toBeNull();
    expect(session.getAccessToken()).toBeUndefined();
    // Nothing is left to send: later requests fail locally.
    await expect(whoami(api)).rejects.toMatchObject({ code: "NOT_SIGNED_IN" });
  });

  it("takes the tokens a second tab stored when its own refresh token was used there first", async () => {
    const { api: tabA, session: a, storage } = await signUp(server, "tia", { now });
    // A second tab restores the same stored session and has its own refresher.
    const b = await Session.restore(storage, { now });
    const tabB = new TokenRefresher({ http: b.createHttpClient({ retry: false }), session: b, now });
    const states: SessionState[] = [];
    b.state.subscribe((s) => states.push(s));
    server.expireAccessTokens("@tia:localhost");
    // Tab A refreshes first: the refresh token both tabs held is spent.
    await expect(whoami(tabA)).resolves.toMatchObject({ user_id: "@tia:localhost" });
    expect(storage.load()?.refreshToken).toBe(a.getRefreshToken());
    // Tab B meets the expired token, and its refresh with the spent one is refused: it takes A's tokens.
    await expect(whoami(tabB)).resolves.toMatchObject({ user_id: "@tia:localhost" });
    expect(b.getAccessToken()).toBe(a.getAccessToken());
    expect(states.filter((s) => s.kind === "signed_out")).toEqual([]);
    expect(storage.load()).toMatchObject({ userId: "@tia:localhost", refreshToken: a.getRefreshToken() });
  });

  it("keeps the session when the refresh fails for want of a network", async () => {
    let offline = false;
    const { api, session } = await signUp(server, "nia", {
      now,
      fetch: (input, init) => (offline ? Promise.reject(new TypeError("fetch failed")) : fetch(input, init)),
    });
    clock.advance(50_000);
    offline = true;
    await expect(whoami(api)).rejects.toMatchObject({ code: "NETWORK_ERROR" });
    expect(session.state.getSnapshot().kind).toBe("signed_in");
    offline = false;
    await expect(whoami(api)).resolves.toMatchObject({ user_id: "@nia:localhost" });
  });
});

describe("soft logout", () => {
  it("keeps local data on M_UNKNOWN_TOKEN with soft_logout, and a re-login with the device id restores it", async () => {
    // A session without a refresh token (a server that hands none out).
    await signUp(server, "sol", { password: "pw-sol" });
    const res = await loginApi.login(httpFor(server), {
      type: "m.login.password",
      identifier: { type: "m.id.user", user: "sol" },
      password: "pw-sol",
    });
    const data = sessionDataFrom(res, server.url, now, { identityServerUrl: "http://127.0.0.1:9/is" });
    const { api, session, storage } = await sessionFor(data, { now });
    const deviceId = session.deviceId ?? "";
    expect(session.canRefresh).toBe(false);

    server.expireAccessTokens("@sol:localhost");
    const err: unknown = await whoami(api).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MatrixError);
    expect((err as MatrixError).softLogout).toBe(true);
    expect(session.state.getSnapshot()).toEqual({
      kind: "soft_logged_out",
      userId: "@sol:localhost",
      deviceId,
      message: "soft logged out: sign in again",
    });
    // Local data stays: the stored session still names the user, device and identity server.
    expect(storage.load()).toMatchObject({
      userId: "@sol:localhost",
      deviceId,
      identityServerUrl: "http://127.0.0.1:9/is",
    });
    expect(storage.load()?.accessToken).toBeUndefined();

    const again = await loginWithPassword(httpFor(server), { userId: "sol" }, "pw-sol", { deviceId, now });
    expect(again.deviceId).toBe(deviceId);
    await session.signIn(again);
    expect(session.state.getSnapshot()).toMatchObject({ kind: "signed_in", deviceId });
    expect(session.identityServerUrl).toBe("http://127.0.0.1:9/is");
    await expect(whoami(api)).resolves.toMatchObject({ user_id: "@sol:localhost", device_id: deviceId });
    expect(server.ctx.accounts.devicesOf("@sol:localhost").map((d) => d.deviceId)).toContain(deviceId);
  });

  it("clears the session on M_UNKNOWN_TOKEN without soft_logout and nothing to refresh", async () => {
    await signUp(server, "hal", { password: "pw-hal" });
    const res = await loginApi.login(httpFor(server), {
      type: "m.login.password",
      identifier: { type: "m.id.user", user: "hal" },
      password: "pw-hal",
    });
    const { api, session } = await sessionFor(sessionDataFrom(res, server.url, now), { now });
    // The token dies elsewhere (signed out by another client holding it).
    const raw = httpFor(server);
    await loginApi.logout({ request: (o) => raw.request({ ...o, accessToken: res.access_token }) });
    await expect(whoami(api)).rejects.toBeInstanceOf(MatrixError);
    expect(session.state.getSnapshot()).toMatchObject({ kind: "signed_out", reason: "token_invalid" });
  });
});
