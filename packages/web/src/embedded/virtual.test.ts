/**
 * The embedded page's windowed list (virtual.ts) over a fake scroll
 * element: it renders only the rows near the view, opens at the end when
 * told, stays at the end as rows arrive, keeps the reader's row in place
 * when older rows are prepended or rows above it are measured, and lands
 * on a row asked for. The browser test (e2e/embedded.browser.test.ts)
 * checks the same in Chromium.
 */
import { describe, expect, it } from "vitest";
import { Virtualizer } from "./virtual";
import type { VirtualizerOptions } from "./virtual";

/** A scroll element's geometry: content height from the list, a clamped scrollTop, scroll listeners. */
class FakeScroller {
  clientHeight = 500;
  clientWidth = 300;
  contentHeight = 0;
  private top = 0;
  private readonly listeners = new Set<() => void>();
  get scrollHeight(): number {
    return Math.max(this.contentHeight, this.clientHeight);
  }
  get scrollTop(): number {
    return this.top;
  }
  set scrollTop(v: number) {
    this.top = Math.max(0, Math.min(v, this.scrollHeight - this.clientHeight));
  }
  addEventListener(_: string, l: () => void): void {
    this.listeners.add(l);
  }
  removeEventListener(_: string, l: () => void): void {
    this.listeners.delete(l);
  }
  querySelectorAll(): Element[] {
    return [];
  }
  /** The reader scrolls to `top`. */
  scrollTo(top: number): void {
    this.scrollTop = top;
    for (const l of this.listeners) l();
  }
}

/** A list of `keys` rows of 50 px estimated; render() is one render and its layout effect. */
function setup(keys: string[]) {
  const el = new FakeScroller();
  let rows = keys;
  const list = new Virtualizer<Element, Element>(() => undefined);
  // As the timeline's: the same callbacks while the rows are the same.
  let getItemKey = (i: number): string | number => rows[i] ?? i;
  const estimateSize = (): number => 50;
  const getScrollElement = (): Element => el as unknown as Element;
  const options = (): VirtualizerOptions<Element, Element> => ({
    count: rows.length,
    getScrollElement,
    estimateSize,
    getItemKey,
    overscan: 2,
    anchorTo: "end",
    followOnAppend: true,
    scrollEndThreshold: 48,
    paddingStart: 56,
    paddingEnd: 12,
  });
  const render = (): void => {
    list.setOptions(options());
    el.contentHeight = list.getTotalSize();
    list.settle();
  };
  list.setOptions(options());
  list.mount();
  render();
  return {
    el,
    list,
    render,
    setRows(next: string[]) {
      rows = next;
      getItemKey = (i) => next[i] ?? i;
      render();
    },
    /** Where row `key` is on screen (px from the view's top), or undefined when not rendered. */
    onScreen(key: string): number | undefined {
      const item = list.getVirtualItems().find((v) => v.key === key);
      return item === undefined ? undefined : item.start - el.scrollTop;
    },
  };
}

const range = (from: number, to: number): string[] =>
  Array.from({ length: to - from }, (_, i) => `e${from + i}`);

describe("the embedded windowed list", () => {
  it("opens at the end and renders only the rows near the view", () => {
    const t = setup(range(0, 1000));
    t.list.scrollToEnd();
    t.render();
    expect(t.el.scrollTop).toBe(t.el.scrollHeight - t.el.clientHeight);
    const items = t.list.getVirtualItems();
    expect(items.at(-1)?.key).toBe("e999");
    // 500 px of 50 px rows, plus 2 overscan each side: a dozen or so, not a thousand.
    expect(items.length).toBeLessThan(16);
  });

  it("follows new rows while at the end, and not once the reader scrolled up", () => {
    const t = setup(range(0, 100));
    t.list.scrollToEnd();
    t.render();
    t.setRows(range(0, 101));
    expect(t.el.scrollTop).toBe(t.el.scrollHeight - t.el.clientHeight);
    expect(t.list.getVirtualItems().at(-1)?.key).toBe("e100");
    t.el.scrollTo(t.el.scrollTop - 1000);
    const before = t.onScreen("e70");
    expect(before).toBeDefined();
    t.setRows(range(0, 102));
    expect(t.onScreen("e70")).toBe(before);
  });

  it("keeps the reader's row in place when older rows are prepended or rows above are measured", () => {
    const t = setup(range(50, 100));
    t.list.scrollToEnd();
    t.render();
    t.el.scrollTo(100);
    const before = t.onScreen("e55");
    expect(before).toBeDefined();
    t.setRows(range(0, 100));
    expect(t.onScreen("e55")).toBe(before);
    expect(t.el.scrollTop).toBeGreaterThan(2000);
    // A row above the view measured taller than estimated.
    const row = { getAttribute: () => "40", offsetHeight: 120, isConnected: true } as unknown as Element;
    t.list.measureElement(row);
    t.render();
    expect(t.onScreen("e55")).toBe(before);
  });

  it("keeps the rows in view put when the row cut by the view's top changes height", () => {
    const t = setup(range(0, 100));
    t.list.scrollToEnd();
    t.render();
    t.el.scrollTo(56 + 10 * 50 + 20); // e10 is cut by the top, e11 is the first whole row
    const before = t.onScreen("e11");
    const cut = { getAttribute: () => "10", offsetHeight: 20, isConnected: true } as unknown as Element;
    t.list.measureElement(cut);
    t.render();
    expect(t.onScreen("e11")).toBe(before);
  });

  it("does not undo a scroll whose event has not come yet when something re-renders first", () => {
    const t = setup(range(0, 100));
    t.list.scrollToEnd();
    t.render();
    t.el.scrollTop = 0; // the event comes later: the owner's handler re-renders before this list hears of it
    t.render();
    expect(t.el.scrollTop).toBe(0);
    expect(t.list.getVirtualItems()[0]?.key).toBe("e0");
    t.setRows(range(0, 101));
    expect(t.el.scrollTop).toBe(0);
  });

  it("lands on a row asked for, centred", () => {
    const t = setup(range(0, 500));
    t.list.scrollToIndex(100, { align: "center" });
    t.render();
    expect(t.onScreen("e100")).toBe((500 - 50) / 2);
  });
});
