/**
 * A small windowed list with the part of @tanstack/react-virtual's API that
 * the timeline (features/timeline/Timeline.tsx) uses: `useVirtualizer`
 * (count, keys, estimated and measured sizes, overscan, paddings, the end
 * threshold), `measureElement`, and on the instance `getVirtualItems`,
 * `getTotalSize`, `scrollToEnd`, `scrollToIndex`, `measureElement`,
 * `indexFromElement`, `scrollOffset` and `scrollRect`. The embedded page's
 * build (vite.embedded.config.ts) resolves `@tanstack/react-virtual` here,
 * so the room view does not carry the full virtualiser (about 8 KB gzip);
 * the app keeps @tanstack.
 *
 * It is always what the timeline asks @tanstack for (anchored to the end,
 * following appends), with one rule for every change of layout (rows
 * prepended or removed, a row measured, the viewport resized): a reader at
 * the end (within `scrollEndThreshold`) stays at the end; any other reader
 * keeps the first row whose top is in view at the same place on screen
 * (its key and its distance from the top, taken at each scroll). Only the rows in view and
 * `overscan` rows each side are rendered, whatever the count.
 */
import { useLayoutEffect, useReducer, useState } from "react";

type Key = string | number;

/** One rendered row: where it sits in the list (px, from the list's top). */
export interface VirtualItem {
  key: Key;
  index: number;
  start: number;
  end: number;
  size: number;
  lane: number;
}

/** The options the timeline passes (anchorTo and followOnAppend are this list's only behaviour). */
export interface VirtualizerOptions<S extends Element, I extends Element> {
  count: number;
  getScrollElement: () => S | null;
  estimateSize: (index: number) => number;
  getItemKey?: (index: number) => Key;
  measureElement?: (
    element: I,
    entry: ResizeObserverEntry | undefined,
    instance: Virtualizer<S, I>,
  ) => number;
  overscan?: number;
  anchorTo?: "end";
  followOnAppend?: boolean;
  scrollEndThreshold?: number;
  paddingStart?: number;
  paddingEnd?: number;
}

/** A row element's height: the observer's border box, else its layout height. */
export function measureElement(element: Element, entry: ResizeObserverEntry | undefined): number {
  const box = entry?.borderBoxSize?.[0];
  return box ? Math.round(box.blockSize) : (element as HTMLElement).offsetHeight;
}

/** The list's state: sizes by key, the laid-out rows, the scroll position and what keeps it. */
export class Virtualizer<S extends Element, I extends Element> {
  scrollOffset: number | null = null;
  scrollRect: { width: number; height: number } | null = null;
  private o!: VirtualizerOptions<S, I>;
  private readonly sizes = new Map<Key, number>();
  private version = 0;
  /** What the layout was computed from: a new value of any of them lays the rows out again. */
  private laidOut: unknown[] = [];
  private keys: Key[] = [];
  private starts: number[] = [];
  private ends: number[] = [];
  private readonly byKey = new Map<Key, number>();
  private total = 0;
  /** At the end: every change of layout keeps the reader there. */
  private pinned = false;
  /** Otherwise: this row stays `delta` px below the top of the view. */
  private anchor: { key: Key; delta: number } | null = null;
  private shown = "";
  private el: S | null = null;
  /** The scroll position last read or written here; the rows laid out again or a command since. */
  private top = 0;
  private moved = false;
  private observer: ResizeObserver | undefined;

  constructor(private readonly changed: () => void) {}

  /** Each render: the options, and the layout when rows or sizes changed. */
  setOptions(o: VirtualizerOptions<S, I>): void {
    this.o = o;
    const from = [o.count, this.version, o.getItemKey, o.estimateSize, o.paddingStart, o.paddingEnd];
    if (from.some((v, i) => v !== this.laidOut[i])) {
      this.laidOut = from;
      this.moved = true;
      this.layout();
      // Render where settle() will put the view, so the rows it needs are the ones rendered.
      const want = this.target(this.total - this.height());
      if (want !== null) this.scrollOffset = Math.max(0, Math.min(want, this.total - this.height()));
    }
    this.shown = this.range();
  }

  getTotalSize(): number {
    return this.total;
  }

  getVirtualItems(): VirtualItem[] {
    const [from, to] = this.range().split(":").map(Number) as [number, number];
    const items: VirtualItem[] = [];
    for (let i = from; i <= to; i++) {
      const start = this.starts[i] ?? 0;
      const end = this.ends[i] ?? 0;
      items.push({ key: this.keys[i] ?? i, index: i, start, end, size: end - start, lane: 0 });
    }
    return items;
  }

  indexFromElement(element: Element): number {
    return Number(element.getAttribute("data-index"));
  }

  /** Ref callback of each row: observed for its height, measured at once unless known. */
  measureElement = (element: I | null): void => {
    if (element === null) return;
    this.observer?.observe(element);
    const key = this.keyOf(this.indexFromElement(element));
    if (key !== undefined && !this.sizes.has(key)) this.resize(element, undefined);
  };

  scrollToEnd(): void {
    this.pinned = true;
    this.moved = true;
    this.settle();
  }

  scrollToIndex(index: number, options: { align?: "start" | "center" | "end" | "auto" } = {}): void {
    const key = this.keyOf(index);
    if (key === undefined) return;
    const size = (this.ends[index] ?? 0) - (this.starts[index] ?? 0);
    const room = this.height() - size;
    this.pinned = false;
    this.anchor = {
      key,
      delta: options.align === "center" ? room / 2 : options.align === "end" ? room : 0,
    };
    this.moved = true;
    this.settle();
  }

  /** Attaches to the scroll element (a layout effect); returns the detach. */
  mount(): () => void {
    const el = this.o.getScrollElement();
    this.el = el;
    if (el === null) return () => undefined;
    this.scrollRect = { width: el.clientWidth, height: el.clientHeight };
    // Capture phase: before the owner's own scroll handler, whose re-render would settle() first.
    const onScroll = (): void => this.scrolled(el);
    el.addEventListener("scroll", onScroll, { capture: true, passive: true });
    const observer =
      typeof ResizeObserver === "undefined"
        ? undefined
        : new ResizeObserver((entries) => {
            for (const entry of entries) {
              const target = entry.target;
              if (target === el) this.scrollRect = { width: el.clientWidth, height: el.clientHeight };
              else if (!target.isConnected) observer?.unobserve(target);
              else this.resize(target as I, entry);
            }
            if (entries.some((e) => e.target === el)) this.changed();
          });
    observer?.observe(el);
    // Rows attached before this (React attaches refs before layout effects, and StrictMode mounts twice).
    for (const row of el.querySelectorAll("[data-index]")) observer?.observe(row);
    this.observer = observer;
    this.changed();
    return () => {
      el.removeEventListener("scroll", onScroll, { capture: true });
      observer?.disconnect();
      this.observer = undefined;
      this.el = null;
    };
  }

  /** After each render: puts the view where the layout change should leave it. */
  settle(): void {
    const el = this.el;
    if (el === null) return;
    // The reader scrolled and its event has not come yet: that scroll is where the view goes.
    if (!this.moved && Math.abs(el.scrollTop - this.top) >= 1) return this.scrolled(el);
    this.moved = false;
    const want = this.target(el.scrollHeight - el.clientHeight);
    if (want !== null && Math.abs(want - el.scrollTop) >= 1) el.scrollTop = want;
    this.top = this.scrollOffset = el.scrollTop;
    this.capture();
    this.update();
  }

  /** A scroll by the reader: at the end or not, and the row that now anchors the view. */
  private scrolled(el: S): void {
    this.top = this.scrollOffset = el.scrollTop;
    this.pinned = el.scrollHeight - el.scrollTop - el.clientHeight <= (this.o.scrollEndThreshold ?? 1);
    this.capture();
    this.update();
  }

  private resize(element: I, entry: ResizeObserverEntry | undefined): void {
    const key = this.keyOf(this.indexFromElement(element));
    if (key === undefined) return;
    const size = this.o.measureElement
      ? this.o.measureElement(element, entry, this)
      : measureElement(element, entry);
    if (this.sizes.get(key) === size) return;
    this.sizes.set(key, size);
    this.version++;
    this.changed();
  }

  private layout(): void {
    const { count, estimateSize } = this.o;
    const keyOf = this.o.getItemKey ?? ((i: number) => i);
    this.keys = [];
    this.starts = [];
    this.ends = [];
    this.byKey.clear();
    let at = this.o.paddingStart ?? 0;
    for (let i = 0; i < count; i++) {
      const key = keyOf(i);
      this.keys.push(key);
      this.byKey.set(key, i);
      this.starts.push(at);
      at += this.sizes.get(key) ?? estimateSize(i);
      this.ends.push(at);
    }
    this.total = at + (this.o.paddingEnd ?? 0);
  }

  /** Where the view's top should be: the end when pinned, else where the anchor row stays put. */
  private target(end: number): number | null {
    if (this.pinned) return Math.max(0, end);
    const i = this.anchor === null ? undefined : this.byKey.get(this.anchor.key);
    return i === undefined || this.anchor === null ? null : (this.starts[i] ?? 0) - this.anchor.delta;
  }

  /**
   * The first row whose top is in view becomes the anchor: a row cut by the view's top is above it,
   * so when it changes height (an older page prepended takes its date line and sender away) the
   * rows the reader sees stay put.
   */
  private capture(): void {
    const top = this.scrollOffset ?? 0;
    let i = this.first(top);
    if ((this.starts[i] ?? 0) < top && i + 1 < this.keys.length) i++;
    const key = this.keys[i];
    this.anchor = key === undefined ? null : { key, delta: (this.starts[i] ?? 0) - top };
  }

  /** Re-renders when the rows in view changed. */
  private update(): void {
    if (this.range() !== this.shown) this.changed();
  }

  /** "from:to", the rows to render (in view, plus overscan each side). */
  private range(): string {
    const n = this.keys.length;
    if (n === 0) return "0:-1";
    const top = this.scrollOffset ?? 0;
    const bottom = top + this.height();
    const overscan = this.o.overscan ?? 1;
    let to = this.first(top);
    const from = Math.max(0, to - overscan);
    while (to < n - 1 && (this.starts[to + 1] ?? 0) < bottom) to++;
    return `${from}:${Math.min(n - 1, to + overscan)}`;
  }

  /** The first row whose end is below `y` (binary search), or the last row. */
  private first(y: number): number {
    let lo = 0;
    let hi = this.keys.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.ends[mid] ?? 0) > y) hi = mid;
      else lo = mid + 1;
    }
    return Math.max(0, lo);
  }

  private height(): number {
    return this.scrollRect?.height ?? 0;
  }

  private keyOf(index: number): Key | undefined {
    return this.keys[index];
  }
}

/** The list for one scroll element: re-renders its owner when the rows in view or their sizes change. */
export function useVirtualizer<S extends Element, I extends Element>(
  options: VirtualizerOptions<S, I>,
): Virtualizer<S, I> {
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const [list] = useState(() => new Virtualizer<S, I>(rerender));
  list.setOptions(options);
  useLayoutEffect(() => list.mount(), [list]);
  useLayoutEffect(() => list.settle());
  return list;
}
