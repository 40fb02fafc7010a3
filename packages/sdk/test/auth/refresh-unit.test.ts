/**
 * TokenRefresher edge cases on a scripted HttpApi and fake time: requests to
 * other hosts pass through without the homeserver token, an unusable
 * refresh answer ends the session, an M_UNKNOWN_TOKEN retry happens once
 * only, a refresh ahead of time that fails for want of a network lets
 * the still-valid token through, and refreshes run under the platform's Web
 * Locks, where a page that waited takes the tokens another page stored.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { IDBFactory } from "fake-indexeddb";
import { indexedDbHandoff } from "../../src/auth/handoff";
import { TokenRefresher } from "../../src/auth/refresh";
import { Session } from "../../src/auth/session";
import { MemorySessionStorage } from "../../src/auth/storage";
import { ConnectionError, MatrixError } from "../../src/http/errors";
import type { HttpApi, RequestOptions } from "../../src/http/types";

type Answer = (options: RequestOptions) => unknown;

function scripted(answer: Answer): HttpApi & { calls: RequestOptions[] } {
  const calls: RequestOptions[] = [];
  return {
    calls,
    request<T>(options: RequestOptions): Promise<T> {
      calls.push(options);
      try {
        return Promise.resolve(answer(options) as T);
      } catch (err) {
        return Promise.reject(err instanceof Error ? err : new Error(String(err)));
      }
    },
  };
}

const unknownToken = (soft = false) =>
  new MatrixError({
    errcode: "M_UNKNOWN_TOKEN",
    error: "gone",
    httpStatus: 401,
    data: { soft_logout: soft },
  });

async function setup(answer: Answer, now = () => 1_000) {
  const storage = new MemorySessionStorage();
  const session = new Session(storage, null, { now });
  await session.signIn({
    homeserverUrl: "https://hs.example.org",
    userId: "@u:hs",
    deviceId: "D",
    accessToken: "old",
    refreshToken: "r1",
    expiresAt: 100_000,
  });
  const http = scripted(answer);
  return { session, storage, http, api: new TokenRefresher({ http, session, now }) };
}

describe("TokenRefresher on a scripted server", () => {
  it("passes identity server and unauthenticated requests through untouched", async () => {
    const { api, http } = await setup(() => ({}));
    await api.request({ method: "GET", path: "/hash_details", baseUrl: "https://id.example.org" });
    await api.request({ method: "GET", path: "/login", authenticated: false });
    await api.request({ method: "GET", path: "/account/whoami" });
    expect(http.calls.map((c) => c.accessToken)).toEqual([undefined, undefined, "old"]);
  });

  it("ends the session when the refresh answer has no access token", async () => {
    const { api, session, storage } = await setup((o) => {
      if (o.path === "/refresh") return { nope: true };
      throw unknownToken();
    });
    await expect(api.request({ method: "GET", path: "/sync" })).rejects.toMatchObject({
      code: "REFRESH_FAILED",
    });
    expect(session.state.getSnapshot()).toMatchObject({ kind: "signed_out", reason: "refresh_failed" });
    expect(storage.load()).toBeNull();
  });

  it("retries once after a refresh, not forever", async () => {
    const { api, http, session } = await setup((o) => {
      if (o.path === "/refresh") return { access_token: `new-${http.calls.length}`, refresh_token: "r2" };
      throw unknownToken();
    });
    await expect(api.request({ method: "GET", path: "/sync" })).rejects.toBeInstanceOf(MatrixError);
    expect(http.calls.map((c) => c.path)).toEqual(["/sync", "/refresh", "/sync"]);
    expect(http.calls[1]?.body).toEqual({ refresh_token: "r1" });
    expect(http.calls[2]?.accessToken).toBe("new-2");
    expect(session.getRefreshToken()).toBe("r2");
  });

  it("soft-logs out when the refresh itself answers soft_logout", async () => {
    const { api, session, storage } = await setup((o) => {
      if (o.path === "/refresh") throw unknownToken(true);
      throw unknownToken(true);
    });
    await expect(api.request({ method: "GET", path: "/sync" })).rejects.toMatchObject({
      code: "REFRESH_FAILED",
    });
    expect(session.state.getSnapshot().kind).toBe("soft_logged_out");
    expect(storage.load()).toMatchObject({ userId: "@u:hs", deviceId: "D" });
  });

  it("uses the still-valid token when an early refresh cannot reach the server", async () => {
    let time = 80_000; // 20 s before expiry: inside the 30 s window
    const { api, http, session } = await setup(
      (o) => {
        if (o.path === "/refresh") throw new ConnectionError("network", "offline");
        return { ok: true };
      },
      () => time,
    );
    await expect(api.request({ method: "GET", path: "/sync" })).resolves.toEqual({ ok: true });
    expect(http.calls.map((c) => [c.path, c.accessToken])).toEqual([
      ["/refresh", undefined],
      ["/sync", "old"],
    ]);
    expect(session.state.getSnapshot().kind).toBe("signed_in");
    time = 100_000; // expired now: the failure is the caller's
    await expect(api.request({ method: "GET", path: "/sync" })).rejects.toBeInstanceOf(ConnectionError);
  });
});

describe("TokenRefresher under the pages' lock", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("refreshes under navigator.locks, named for the user and device", async () => {
    const names: string[] = [];
    vi.stubGlobal("navigator", {
      locks: {
        request: (name: string, run: () => Promise<unknown>) => {
          names.push(name);
          return run();
        },
      },
    });
    const { api, session } = await setup((o) => (o.path === "/refresh" ? { access_token: "new" } : {}));
    await api.refresh();
    expect(names).toEqual(["lattice.refresh @u:hs D"]);
    expect(session.getAccessToken()).toBe("new");
  });

  it("takes the tokens another page stored while it waited for the lock, without a request", async () => {
    const { session, storage, http } = await setup(() => ({ access_token: "mine" }));
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const api = new TokenRefresher({
      http,
      session,
      now: () => 1_000,
      // Another page holds the lock; it refreshes and stores its tokens before letting go.
      lock: async (_name, run) => {
        await held;
        return run();
      },
    });
    const refreshing = api.refresh();
    const stored = storage.load();
    if (stored === null) throw new Error("no stored session");
    storage.save({ ...stored, accessToken: "theirs", refreshToken: "r2", expiresAt: 400_000 });
    release();
    await refreshing;
    expect(http.calls).toEqual([]);
    expect([session.getAccessToken(), session.getRefreshToken(), session.expiresAt]).toEqual([
      "theirs",
      "r2",
      400_000,
    ]);
  });

  it("takes the tokens handed over through IndexedDB when the stored session has not caught up", async () => {
    // Two pages of one session whose stored copies differ (localStorage reaching the other tab late).
    const lock = <T>(_name: string, run: () => Promise<T>): Promise<T> => run();
    const factory = new IDBFactory();
    const first = await setup((o) =>
      o.path === "/refresh" ? { access_token: "a2", refresh_token: "r2" } : {},
    );
    const second = await setup(() => {
      throw new Error("the second page spent the refresh token again");
    });
    // Each page has its own refresher and its own connection to the handoff's database.
    for (const page of [first, second]) {
      const handoff = indexedDbHandoff(factory);
      await new TokenRefresher({
        http: page.http,
        session: page.session,
        now: () => 1_000,
        lock,
        handoff,
      }).refresh();
    }
    expect(second.http.calls).toEqual([]);
    expect([second.session.getAccessToken(), second.session.getRefreshToken()]).toEqual(["a2", "r2"]);
    expect(second.storage.load()).toMatchObject({ accessToken: "a2", refreshToken: "r2" });
  });

  it("leaves no tokens in the handoff once the session signs out or is soft logged out", async () => {
    const lock = <T>(_name: string, run: () => Promise<T>): Promise<T> => run();
    const name = "lattice.refresh @u:hs D";
    for (const end of ["sign out", "soft logout"] as const) {
      const handoff = indexedDbHandoff(new IDBFactory());
      const { session, http } = await setup((o) =>
        o.path === "/refresh" ? { access_token: "a2", refresh_token: "r2" } : {},
      );
      await new TokenRefresher({ http, session, now: () => 1_000, lock, handoff }).refresh();
      expect(await handoff.take(name, "r1")).toMatchObject({ accessToken: "a2" });
      if (end === "sign out") await session.clear("logout");
      else await session.softLogout();
      await vi.waitFor(async () => expect(await handoff.take(name, "r1")).toBeUndefined());
    }
  });

  it("refreshes without a lock where the platform has none, or when told not to use one", async () => {
    vi.stubGlobal("navigator", {
      locks: {
        request: () => Promise.reject(new Error("the platform lock was used")),
      },
    });
    const { session, http } = await setup((o) => (o.path === "/refresh" ? { access_token: "new" } : {}));
    await new TokenRefresher({ http, session, now: () => 1_000, lock: null }).refresh();
    expect(session.getAccessToken()).toBe("new");
    vi.stubGlobal("navigator", {});
    const other = await setup((o) => (o.path === "/refresh" ? { access_token: "new2" } : {}));
    await other.api.refresh();
    expect(other.session.getAccessToken()).toBe("new2");
  });
});
