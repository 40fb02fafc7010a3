/**
 * The small pieces of the view-model layer: Scope ownership, the theme
 * choice, the connection banner's mapping and text, error sentences, the
 * media loader's mxc-only and header-only rules, and the page's CSP.
 */
import { describe, expect, it, vi } from "vitest";
import { contentSecurityPolicy } from "../../csp";
import { offlineText, refusedText } from "../features/shell/ConnectionBanner";
import { MemorySessionStorage } from "@lattice/sdk/auth/storage";
import { ConnectionError, MatrixError, Session } from "../sdk";
import { connectionStatusOf } from "./ClientViewModel";
import { describeError } from "./errors";
import { MediaLoader } from "./MediaLoader";
import { ObservableValue } from "./observables";
import { Scope } from "./Scope";
import { ThemeViewModel } from "./ThemeViewModel";

describe("Scope", () => {
  it("ends its subscriptions and children, once, and ends late additions at once", () => {
    const source = new ObservableValue(0);
    const scope = new Scope();
    const seen: number[] = [];
    scope.subscribe(source, (v: number) => seen.push(v));
    const child = scope.child();
    let childEnded = 0;
    child.add(() => childEnded++);
    source.set(1);
    scope.end();
    scope.end();
    source.set(2);
    expect(seen).toEqual([1]);
    expect(childEnded).toBe(1);
    let late = 0;
    scope.add(() => late++);
    expect(late).toBe(1);
  });

  it("keeps running cleanups when one throws", () => {
    const scope = new Scope();
    let ran = false;
    scope.add(() => {
      ran = true;
    });
    scope.add(() => {
      throw new Error("boom");
    });
    const error = console.error;
    console.error = () => undefined;
    try {
      scope.end();
    } finally {
      console.error = error;
    }
    expect(ran).toBe(true);
  });
});

describe("ThemeViewModel", () => {
  it("applies, persists and cycles the choice", () => {
    const store = new Map<string, string>();
    const attrs = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    };
    const root = {
      setAttribute: (k: string, v: string) => void attrs.set(k, v),
      removeAttribute: (k: string) => void attrs.delete(k),
    };
    const theme = new ThemeViewModel(storage, root);
    expect(theme.choice.getSnapshot()).toBe("system");
    expect(attrs.has("data-theme")).toBe(false);
    theme.cycle();
    expect(attrs.get("data-theme")).toBe("dark");
    expect(new ThemeViewModel(storage, root).choice.getSnapshot()).toBe("dark");
    theme.cycle();
    theme.cycle();
    expect(theme.choice.getSnapshot()).toBe("system");
    expect(attrs.has("data-theme")).toBe(false);
    store.set("lattice.theme", "<script>");
    expect(new ThemeViewModel(storage, root).choice.getSnapshot()).toBe("system");
  });
});

describe("connection banner", () => {
  it("maps the sync state to online, offline with the last sync, or connecting", () => {
    expect(connectionStatusOf("syncing", 5)).toEqual({ kind: "online" });
    expect(connectionStatusOf("catchup", 5)).toEqual({ kind: "online" });
    expect(connectionStatusOf("reconnecting", 5)).toEqual({ kind: "offline", since: 5 });
    expect(connectionStatusOf("error", null)).toEqual({ kind: "offline", since: null });
    expect(connectionStatusOf(null, null)).toEqual({ kind: "connecting" });
  });

  it("says what the server said when it refused the sync, not that it cannot be reached", () => {
    const refused = {
      kind: "refused",
      httpStatus: 400,
      errcode: "M_UNKNOWN",
      message: "Additional properties are not allowed ('unread_thread_notifications' was unexpected)",
      permanent: true,
    } as const;
    const status = connectionStatusOf("error", 5, refused);
    expect(status).toEqual({
      kind: "refused",
      errcode: "M_UNKNOWN",
      message: "Additional properties are not allowed ('unread_thread_notifications' was unexpected)",
      stopped: true,
    });
    expect(refusedText("M_UNKNOWN", "Additional properties are not allowed")).toBe(
      "Not syncing: the homeserver refused the request (M_UNKNOWN: Additional properties are not allowed).",
    );
    // A network failure still reads as unreachable.
    expect(
      connectionStatusOf("error", null, { kind: "network", message: "fetch failed", permanent: false }),
    ).toEqual({ kind: "offline", since: null });
  });

  it("tells an unusable answer and a failed local write apart from a lost connection", () => {
    expect(
      connectionStatusOf("error", 5, {
        kind: "protocol",
        message: "The homeserver sent a sync token that cannot be sent back unchanged",
        permanent: true,
      }),
    ).toEqual({
      kind: "failed",
      what: "unusable",
      message: "The homeserver sent a sync token that cannot be sent back unchanged",
      stopped: true,
    });
    expect(
      connectionStatusOf("reconnecting", 5, {
        kind: "processing",
        message: "QuotaExceededError",
        permanent: false,
      }),
    ).toEqual({ kind: "failed", what: "local", message: "QuotaExceededError", stopped: false });
  });

  it("a store failure while syncing says the data is kept in memory, not that the connection is lost", () => {
    const failure = {
      kind: "store",
      message: "Saving on this device failed; continuing in memory",
      permanent: false,
    } as const;
    expect(connectionStatusOf("syncing", 5, failure)).toEqual({
      kind: "memory_only",
      message: "Saving on this device failed; continuing in memory",
    });
    // A parse failure is "unusable" even before the loop's state changes.
    expect(
      connectionStatusOf("syncing", 5, {
        kind: "protocol",
        message: "rooms is not an object",
        permanent: false,
      }),
    ).toEqual({ kind: "failed", what: "unusable", message: "rooms is not an object", stopped: false });
    // Only a lost connection reads as offline.
    expect(
      connectionStatusOf("reconnecting", 5, { kind: "network", message: "fetch failed", permanent: false }),
    ).toEqual({ kind: "offline", since: 5 });
  });

  it("says since when, with the day when it was not today", () => {
    const now = new Date(2026, 10, 22, 15, 0).getTime();
    expect(offlineText(null, now)).toBe("Not syncing: cannot reach the homeserver.");
    const at = new Date(2026, 10, 22, 14, 5);
    const today = offlineText(at.getTime(), now);
    const clock = at.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
    expect(today).toBe(`Not syncing: offline since ${clock}. Messages may be out of date.`);
    const earlier = offlineText(new Date(2026, 10, 20, 9, 30).getTime(), now);
    expect(earlier).toMatch(/20/);
    expect(earlier).not.toBe(today);
  });
});

describe("describeError", () => {
  it("gives one clear sentence per known failure", () => {
    const m = (errcode: string): MatrixError =>
      new MatrixError({ errcode, error: "server text", httpStatus: 403 });
    expect(describeError(m("M_FORBIDDEN"))).toBe("Incorrect username or password.");
    expect(describeError(m("M_USER_DEACTIVATED"))).toBe("This account has been deactivated.");
    expect(describeError(new ConnectionError("network", "down"))).toBe(
      "Cannot reach the homeserver. Check the address and your connection.",
    );
    expect(describeError(m("M_UNKNOWN"))).toBe("server text");
    expect(
      describeError(
        new MatrixError({ errcode: "M_LIMIT_EXCEEDED", error: "", httpStatus: 429, retryAfterMs: 2500 }),
      ),
    ).toBe("Too many attempts. Try again in 3 seconds.");
    expect(describeError(new Error("specific"))).toBe("specific");
    expect(describeError("weird")).toBe("Something went wrong during sign-in.");
  });
});

describe("MediaLoader", () => {
  it("fetches only mxc URIs, from the homeserver, with the token as a header", async () => {
    const session = new Session(new MemorySessionStorage(), {
      homeserverUrl: "https://hs.example",
      userId: "@a:hs.example",
      deviceId: "D",
      accessToken: "secret",
    });
    const calls: Array<{ url: string; headers: unknown }> = [];
    const loader = new MediaLoader(session, (url, init) => {
      calls.push({ url, headers: init.headers });
      return Promise.resolve(new Response(new Blob(["x"])));
    });
    await expect(loader.load({ mxc: "https://evil.example/x.png" })).rejects.toThrow("Not an mxc URI");
    await expect(loader.load({ mxc: "mxc://hs.example/../../x" })).rejects.toThrow();
    const url = await loader.load({ mxc: "mxc://hs.example/abc" });
    expect(url.startsWith("blob:")).toBe(true);
    await loader.load({ mxc: "mxc://hs.example/abc" });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url.startsWith("https://hs.example/_matrix/client/v1/media/")).toBe(true);
    expect(calls[0]?.url).not.toContain("secret");
    expect(calls[0]?.headers).toEqual({ Authorization: "Bearer secret" });
    loader.dispose();
  });

  it("uses legacy /_matrix/media/v3 with no credentials when the server has no authenticated media", async () => {
    const session = new Session(new MemorySessionStorage(), {
      homeserverUrl: "https://hs.example",
      userId: "@a:hs.example",
      deviceId: "D",
      accessToken: "secret",
    });
    const calls: Array<{ url: string; init: RequestInit }> = [];
    const loader = new MediaLoader(
      session,
      (url, init) => {
        calls.push({ url, init });
        return Promise.resolve(new Response(new Blob(["x"])));
      },
      undefined,
      () => Promise.resolve(false),
    );
    await loader.load({ mxc: "mxc://hs.example/abc" });
    await loader.load({ mxc: "mxc://hs.example/abc", thumbnail: { width: 32, height: 32 } });
    expect(calls.map((c) => c.url)).toEqual([
      "https://hs.example/_matrix/media/v3/download/hs.example/abc",
      "https://hs.example/_matrix/media/v3/thumbnail/hs.example/abc?width=32&height=32&method=scale",
    ]);
    for (const call of calls) {
      expect(call.url).not.toContain("secret");
      expect(JSON.stringify(call.init)).not.toContain("secret");
    }
    loader.dispose();
  });

  it("gives blobs only media types: HTML or SVG from the server becomes application/octet-stream", async () => {
    const session = new Session(new MemorySessionStorage(), {
      homeserverUrl: "https://hs.example",
      userId: "@a:hs.example",
      deviceId: "D",
      accessToken: "secret",
    });
    const types = new Map([
      ["html", "text/html"],
      ["svg", "image/svg+xml"],
      ["png", "image/png"],
      ["xml", "application/xhtml+xml"],
    ]);
    const made: string[] = [];
    const spy = vi.spyOn(URL, "createObjectURL").mockImplementation((blob) => {
      made.push((blob as Blob).type);
      return `blob:test/${made.length}`;
    });
    const loader = new MediaLoader(session, (url) =>
      Promise.resolve(
        new Response(new Blob(["<script>x</script>"]), {
          headers: { "content-type": types.get(url.split("/").pop() ?? "") ?? "text/plain" },
        }),
      ),
    );
    for (const id of types.keys()) await loader.load({ mxc: `mxc://hs.example/${id}` });
    expect(made).toEqual([
      "application/octet-stream",
      "application/octet-stream",
      "image/png",
      "application/octet-stream",
    ]);
    spy.mockRestore();
    loader.dispose();
  });
});

describe("contentSecurityPolicy", () => {
  it("is strict in the build and only relaxes styles for the dev server", () => {
    const built = contentSecurityPolicy({ homeserver: "http://10.0.0.5:8008", dev: false });
    expect(built).not.toContain("unsafe-inline");
    expect(built).not.toMatch(/ 'unsafe-eval'/);
    expect(built).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(built).toContain("object-src 'none'");
    expect(built).toContain("base-uri 'none'");
    expect(built).toMatch(/connect-src [^;]*https:[^;]*http:\/\/10\.0\.0\.5:8008/);
    expect(built).toMatch(/img-src 'self' blob: data:;/);
    const dev = contentSecurityPolicy({ homeserver: "not a url", dev: true });
    expect(dev).toMatch(/style-src 'self' 'unsafe-inline'/);
    expect(dev).not.toMatch(/script-src[^;]*unsafe-inline/);
  });
});
