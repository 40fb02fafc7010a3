/**
 * The IRC layout is a third layout choice beside modern and compact: chosen
 * in Settings › Appearance, applied as data-layout="irc" on <html> (the
 * timeline's stylesheet reads it) and kept across reloads like the others.
 */
import { describe, expect, it } from "vitest";
import { AppearanceSettings, applyStoredAppearance, LAYOUT_KEY, LAYOUTS } from "./Appearance";
import type { AppearanceHost } from "./Appearance";

function host(): AppearanceHost & { attrs: Map<string, string>; store: Map<string, string> } {
  const store = new Map<string, string>();
  const attrs = new Map<string, string>();
  return {
    store,
    attrs,
    storage: { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => void store.set(k, v) },
    root: { setAttribute: (n, v) => void attrs.set(n, v), style: { fontSize: "" } },
  };
}

describe("IRC layout", () => {
  it("is offered beside modern and compact", () => {
    expect(LAYOUTS).toEqual(["modern", "compact", "irc"]);
  });

  it("applies and persists across a reload", () => {
    const h = host();
    const settings = new AppearanceSettings(h);
    expect(settings.layout.getSnapshot()).toBe("modern");
    settings.setLayout("irc");
    expect(h.attrs.get("data-layout")).toBe("irc");
    expect(h.store.get(LAYOUT_KEY)).toBe("irc");
    // A reload: a new page reads the stored choice.
    const reloaded = host();
    reloaded.store.set(LAYOUT_KEY, "irc");
    applyStoredAppearance(reloaded);
    expect(reloaded.attrs.get("data-layout")).toBe("irc");
    expect(new AppearanceSettings(reloaded).layout.getSnapshot()).toBe("irc");
  });

  it("falls back to modern for an unknown stored value", () => {
    const h = host();
    h.store.set(LAYOUT_KEY, "bubbles");
    expect(new AppearanceSettings(h).layout.getSnapshot()).toBe("modern");
  });
});
