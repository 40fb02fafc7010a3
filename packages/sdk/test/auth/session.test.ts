/**
 * Session and its storage without a server: persistence through the memory
 * store and a localStorage-like adapter (untrusted JSON read back), the
 * observable state through sign-in, refresh, soft logout and clear, media
 * URLs without tokens, and the Authorization header kept to the homeserver.
 */
import { describe, expect, it } from "vitest";
import { Session } from "../../src/auth/session";
import type { SessionState } from "../../src/auth/session";
import {
  MemorySessionStorage,
  SESSION_STORAGE_KEY,
  WebSessionStorage,
  parseSessionData,
} from "../../src/auth/storage";
import type { KeyValueStorage, SessionData } from "../../src/auth/storage";

class FakeLocalStorage implements KeyValueStorage {
  readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
}

const data: SessionData = {
  homeserverUrl: "https://hs.example.org",
  userId: "@me:example.org",
  deviceId: "DEV",
  accessToken: "secret-access",
  refreshToken: "secret-refresh",
  expiresAt: 1_000_000,
};

describe("storage", () => {
  it("round-trips through a localStorage-like store and survives garbage", () => {
    const local = new FakeLocalStorage();
    const storage = new WebSessionStorage(local);
    storage.save(data);
    expect(storage.load()).toEqual(data);
    local.setItem(SESSION_STORAGE_KEY, "{not json");
    expect(storage.load()).toBeNull();
    local.setItem(SESSION_STORAGE_KEY, JSON.stringify({ userId: 3, homeserverUrl: "x", deviceId: "d" }));
    expect(storage.load()).toBeNull();
    storage.clear();
    expect(local.items.size).toBe(0);
  });

  it("keeps only well-typed fields", () => {
    const parsed = parseSessionData(
      JSON.parse(
        '{"homeserverUrl":"h","userId":"u","deviceId":"d","expiresAt":"soon","isGuest":"yes","__proto__":{"x":1}}',
      ),
    );
    expect(parsed).toEqual({ homeserverUrl: "h", userId: "u", deviceId: "d" });
    expect(parseSessionData(null)).toBeNull();
    expect(parseSessionData([1])).toBeNull();
  });
});

describe("Session", () => {
  it("goes signed in, refreshed, soft logged out and signed out, persisting each step", async () => {
    const storage = new MemorySessionStorage();
    let now = 500_000;
    const session = new Session(storage, null, { now: () => now });
    const states: SessionState[] = [];
    session.state.subscribe((s) => states.push(s));
    expect(session.state.getSnapshot()).toEqual({ kind: "signed_out" });

    await session.signIn(data);
    expect(storage.load()).toEqual(data);
    now = 600_000;
    await session.updateTokens({ accessToken: "a2", refreshToken: "r2", expiresInMs: 60_000 });
    expect(session.getAccessToken()).toBe("a2");
    expect(session.expiresAt).toBe(660_000);
    expect(storage.load()).toMatchObject({ accessToken: "a2", refreshToken: "r2", expiresAt: 660_000 });

    await session.softLogout();
    expect(session.canRefresh).toBe(false);
    expect(storage.load()).toEqual({
      homeserverUrl: data.homeserverUrl,
      userId: data.userId,
      deviceId: "DEV",
    });

    const restored = await Session.restore(storage);
    expect(restored.state.getSnapshot()).toMatchObject({ kind: "soft_logged_out", deviceId: "DEV" });

    await session.clear("logout");
    expect(storage.load()).toBeNull();
    expect(states.map((s) => s.kind)).toEqual(["signed_in", "soft_logged_out", "signed_out"]);
  });

  it("builds media URLs without the token and sends the header only to the homeserver", async () => {
    const session = new Session(new MemorySessionStorage(), data);
    const url = session.mediaUrl("mxc://example.org/abc");
    expect(url).toBe("https://hs.example.org/_matrix/client/v1/media/download/example.org/abc");
    expect(url).not.toContain("secret");
    expect(session.authorizationFor(url)).toEqual({ Authorization: "Bearer secret-access" });
    expect(session.authorizationFor("https://evil.example.org/_matrix/client/v1/media/download/x/y")).toEqual(
      {},
    );
    expect(session.authorizationFor("https://hs.example.org.evil.com/")).toEqual({});
    expect(session.authorizationFor("not a url")).toEqual({});
    await session.clear("logout");
    expect(session.authorizationFor(url)).toEqual({});
  });

  it("keeps the identity server across a re-login unless told otherwise", async () => {
    const session = new Session(new MemorySessionStorage(), data);
    await session.setIdentityServerUrl("https://id.example.org");
    await session.softLogout();
    await session.signIn({ ...data, accessToken: "new" });
    expect(session.identityServerUrl).toBe("https://id.example.org");
  });
});
