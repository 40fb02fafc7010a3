/**
 * The browser platform adapter over EventTargets (Node has them): online,
 * offline, pagehide and visibilitychange reach the handlers, unsubscribe
 * removes every listener, and scopes without events give the null platform.
 */
import { describe, expect, it, vi } from "vitest";
import { browserPlatform, nullPlatform } from "../../../src/sync/platform";

function fakeWindow(visibility: { state: string }) {
  const win = new EventTarget() as EventTarget & { document?: EventTarget & { visibilityState?: string } };
  const doc = new EventTarget() as EventTarget & { visibilityState?: string };
  Object.defineProperty(doc, "visibilityState", { get: () => visibility.state });
  win.document = doc;
  return { win, doc };
}

describe("browserPlatform", () => {
  it("reports online/offline, page hide and visibility, until unsubscribed", () => {
    const visibility = { state: "visible" };
    const { win, doc } = fakeWindow(visibility);
    const handlers = { online: vi.fn(), visible: vi.fn(), pageHide: vi.fn() };
    const unsubscribe = browserPlatform(win).subscribe(handlers);
    win.dispatchEvent(new Event("offline"));
    win.dispatchEvent(new Event("online"));
    win.dispatchEvent(new Event("pagehide"));
    visibility.state = "hidden";
    doc.dispatchEvent(new Event("visibilitychange"));
    visibility.state = "visible";
    doc.dispatchEvent(new Event("visibilitychange"));
    expect(handlers.online.mock.calls).toEqual([[false], [true]]);
    expect(handlers.pageHide).toHaveBeenCalledTimes(1);
    expect(handlers.visible.mock.calls).toEqual([[false], [true]]);
    unsubscribe();
    win.dispatchEvent(new Event("offline"));
    win.dispatchEvent(new Event("pagehide"));
    doc.dispatchEvent(new Event("visibilitychange"));
    expect(handlers.online).toHaveBeenCalledTimes(2);
    expect(handlers.pageHide).toHaveBeenCalledTimes(1);
    expect(handlers.visible).toHaveBeenCalledTimes(2);
  });

  it("works without a document", () => {
    const win = new EventTarget();
    const handlers = { online: vi.fn(), visible: vi.fn(), pageHide: vi.fn() };
    const unsubscribe = browserPlatform(win).subscribe(handlers);
    win.dispatchEvent(new Event("online"));
    expect(handlers.online).toHaveBeenCalledWith(true);
    unsubscribe();
  });

  it("falls back to the null platform where there are no events", () => {
    for (const scope of [undefined, null, 5, {}, { addEventListener: 1 }]) {
      expect(browserPlatform(scope)).toBe(nullPlatform);
    }
    expect(() =>
      nullPlatform.subscribe({ online: vi.fn(), visible: vi.fn(), pageHide: vi.fn() })(),
    ).not.toThrow();
  });
});
