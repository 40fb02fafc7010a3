/**
 * The loading screen after a provider's redirect back (issue 16 point 7):
 * while the app trades the OIDC answer (?code&state) or the SSO loginToken
 * for a session, the screen says "returning", so the page shows "Signing you
 * in…" instead of a blank page; a plain start says nothing of the kind.
 */
import { describe, expect, it } from "vitest";
import { AppViewModel } from "./AppViewModel";
import type { AppScreen } from "./AppViewModel";

function memory(): {
  getItem(k: string): string | null;
  setItem(k: string, v: string): void;
  removeItem(k: string): void;
} {
  const map = new Map<string, string>();
  return {
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
  };
}

/** Starts an app at `url` and returns every screen kind (and step) it showed. */
async function screensAt(url: string): Promise<string[]> {
  const app = new AppViewModel({
    storage: memory(),
    tabStorage: memory(),
    defaultHomeserver: "http://127.0.0.1:1",
    currentUrl: url,
    replaceUrl: () => undefined,
    navigate: () => undefined,
    indexedDB: {},
    themeRoot: { setAttribute: () => undefined, removeAttribute: () => undefined },
    // Nothing answers: the sign-in screen's discovery fails fast, and is not what is tested.
    fetch: () => Promise.reject(new Error("offline")),
  });
  const seen: string[] = [];
  const record = (s: AppScreen): void => {
    seen.push(s.kind === "loading" && s.step !== undefined ? `loading:${s.step}` : s.kind);
  };
  record(app.screen.getSnapshot());
  app.screen.subscribe(record);
  await app.start();
  return seen;
}

describe("AppViewModel loading screen", () => {
  it("says it is finishing the sign-in on the return from an OpenID provider, then shows the outcome", async () => {
    const seen = await screensAt("http://app.test/?code=abc&state=xyz");
    expect(seen).toContain("loading:returning");
    expect(seen.indexOf("loading:returning")).toBeLessThan(seen.indexOf("signin"));
  });

  it("says the same on the return from single sign-on", async () => {
    expect(await screensAt("http://app.test/?loginToken=tok")).toContain("loading:returning");
  });

  it("a plain start shows no returning step", async () => {
    expect(await screensAt("http://app.test/")).not.toContain("loading:returning");
  });
});
