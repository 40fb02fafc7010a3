/**
 * TimelineWindow: the part of a room's timeline the UI shows, a range
 * [start, end) of one chunk's events, published as an ObservableList of
 * TimelineItems with diffs. It starts with the newest 20 events (or 20
 * around an event), grows by paginating (at most 10 requests per step),
 * keeps at most 1000 events by unpaginating the far end, follows the live
 * end, and patches items in place when edits, reactions or redactions land
 * or an undecryptable event decrypts late.
 */
import { ObservableList } from "../../util/observable-list";
import type { ReadonlyObservableList } from "../../util/observable-list";
import type { ChunkChange, EventChunk } from "./EventChunk";
import { PAGINATION_PAGE_SIZE } from "./pagination";
import { isShownInMain } from "./TimelineItem";
import type { TimelineItem } from "./TimelineItem";
import type { TimelineSet, TimelineSetChange } from "./TimelineSet";

/** SPEC §9: the timeline window's default limit of events. */
export const TIMELINE_WINDOW_LIMIT = 1000;
/** SPEC §9: paginations per step. */
export const TIMELINE_WINDOW_MAX_PAGINATIONS = 10;
/** SPEC §9: events in the initial load. */
export const TIMELINE_WINDOW_INITIAL_LOAD = 20;

export interface TimelineWindowOptions {
  limit?: number;
  initialLoad?: number;
  maxPaginationsPerStep?: number;
  /** Which events get an item; defaults to the main timeline's rule. */
  shown?: (item: TimelineItem) => boolean;
  /** Called once when the window is disposed (Room releases its hold on the timeline). */
  onDispose?: () => void;
}

export class TimelineWindow {
  readonly limit: number;
  readonly initialLoad: number;
  readonly maxPaginations: number;
  private chunk: EventChunk;
  private start = 0;
  private end = 0;
  private readonly list = new ObservableList<TimelineItem>();
  private unsubscribeChunk: () => void = () => undefined;
  private readonly unsubscribeSet: () => void;
  private readonly shown: (item: TimelineItem) => boolean;
  private disposed = false;
  private readonly onDispose: (() => void) | undefined;

  constructor(
    private readonly set: TimelineSet,
    options: TimelineWindowOptions = {},
  ) {
    this.limit = options.limit ?? TIMELINE_WINDOW_LIMIT;
    this.initialLoad = options.initialLoad ?? TIMELINE_WINDOW_INITIAL_LOAD;
    this.maxPaginations = options.maxPaginationsPerStep ?? TIMELINE_WINDOW_MAX_PAGINATIONS;
    this.shown = options.shown ?? ((item) => isShownInMain(item.event, set.relations));
    this.onDispose = options.onDispose;
    this.chunk = set.live;
    this.unsubscribeSet = set.on((change) => this.onSetChange(change));
    this.attach(set.live);
  }

  /** The shown items, oldest first, with diffs. */
  get items(): ReadonlyObservableList<TimelineItem> {
    return this.list;
  }

  /** The number of events (shown or not) in the window. */
  get size(): number {
    return this.end - this.start;
  }

  /** Whether the window ends at the live end of the room. */
  get atLiveEnd(): boolean {
    return this.chunk.live && this.end === this.chunk.events.length;
  }

  /**
   * Loads the window: around `eventId` (via /context if not loaded) or at the
   * live end with the initial load, paginating back when too few are loaded.
   */
  async load(eventId?: string): Promise<void> {
    if (eventId === undefined) {
      this.attach(this.set.live);
      const n = this.chunk.events.length;
      this.setRange(Math.max(0, n - this.initialLoad), n);
      if (this.size < this.initialLoad) await this.paginate("b", this.initialLoad - this.size);
      return;
    }
    const chunk = await this.set.jumpToEvent(eventId, this.initialLoad);
    this.attach(chunk);
    const at = chunk.indexOf(eventId);
    const before = Math.floor(this.initialLoad / 2);
    const start = Math.max(0, at - before);
    this.setRange(start, Math.min(chunk.events.length, start + this.initialLoad));
  }

  /** Whether the window can grow in a direction (loaded events or a token). */
  canPaginate(dir: "b" | "f"): boolean {
    if (dir === "b") return this.start > 0 || this.chunk.canPaginate("b");
    return this.end < this.chunk.events.length || this.chunk.canPaginate("f");
  }

  /**
   * Grows the window by up to `size` events in a direction, fetching pages
   * when the loaded events run out (at most `maxPaginationsPerStep`
   * requests). Trims the other end to the limit. Resolves with whether the
   * window grew.
   */
  async paginate(dir: "b" | "f", size = PAGINATION_PAGE_SIZE, makeRequest = true): Promise<boolean> {
    let grown = 0;
    let requests = 0;
    while (grown < size && !this.disposed) {
      const available = dir === "b" ? this.start : this.chunk.events.length - this.end;
      if (available > 0) {
        const n = Math.min(available, size - grown);
        if (dir === "b") this.setRange(this.start - n, this.end);
        else this.setRange(this.start, this.end + n);
        grown += n;
        continue;
      }
      if (!makeRequest || requests >= this.maxPaginations || !this.chunk.canPaginate(dir)) break;
      requests++;
      const chunk = this.chunk;
      const added = await this.set.paginate(chunk, dir);
      if (added === 0 && !chunk.canPaginate(dir) && this.chunk === chunk) {
        const left = dir === "b" ? this.start : this.chunk.events.length - this.end;
        if (left === 0) break;
      }
    }
    if (this.size > this.limit) this.unpaginate(this.size - this.limit, dir === "f");
    return grown > 0;
  }

  /** Drops `delta` events from the start (or the end) of the window. */
  unpaginate(delta: number, fromStart: boolean): void {
    const n = Math.max(0, Math.min(delta, this.size));
    if (fromStart) this.setRange(this.start + n, this.end);
    else this.setRange(this.start, this.end - n);
  }

  /** Stops following the timeline (and releases it when opened through a Room). Idempotent. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.unsubscribeChunk();
    this.unsubscribeSet();
    this.onDispose?.();
  }

  /** The same as dispose(). */
  close(): void {
    this.dispose();
  }

  private attach(chunk: EventChunk): void {
    this.unsubscribeChunk();
    this.chunk = chunk;
    this.start = 0;
    this.end = 0;
    this.list.reset([]);
    this.unsubscribeChunk = chunk.on((change) => this.onChunkChange(change));
  }

  private onChunkChange(change: ChunkChange): void {
    if (change.type === "prepend") {
      this.start += change.count;
      this.end += change.count;
    } else if (change.type === "append") {
      // Follow the live end: an open window at the end takes the new events.
      if (this.end === this.chunk.events.length - change.count) {
        this.setRange(this.start, this.chunk.events.length);
        if (this.size > this.limit) this.unpaginate(this.size - this.limit, true);
      }
    } else if (change.type === "replace") {
      if (change.index >= this.start && change.index < this.end) {
        const event = this.chunk.events[change.index];
        if (event !== undefined) this.refresh([event.event_id]);
      }
    } else {
      const { start, end } = this;
      this.unsubscribeChunk();
      this.chunk = change.into;
      this.start = start + change.offset;
      this.end = end + change.offset;
      this.unsubscribeChunk = change.into.on((c) => this.onChunkChange(c));
    }
  }

  private onSetChange(change: TimelineSetChange): void {
    if (change.type === "relations") this.refresh(change.eventIds);
    else if (
      this.chunk !== change.live &&
      this.chunk.forwardToken === null &&
      this.end === this.chunk.events.length
    ) {
      // A limited sync: a window that followed the live end jumps to the new live chunk.
      this.attach(change.live);
      this.setRange(0, change.live.events.length);
    }
  }

  /** Rebuilds the items of these events where shown. */
  private refresh(eventIds: readonly string[]): void {
    const wanted = new Set(eventIds);
    this.list.batch(() => {
      for (let i = 0; i < this.list.length; i++) {
        const item = this.list.at(i);
        if (item === undefined || !wanted.has(item.eventId)) continue;
        const event = this.set.event(item.eventId);
        if (event === undefined) continue;
        const next = this.set.itemOf(event);
        // A late-decrypted stand-in may turn out to be an edit or reaction: it leaves the list.
        if (this.shown(next)) this.list.update(i, next);
        else this.list.remove(i--);
      }
    });
  }

  /** Moves the range, publishing inserts and removes at the two ends. */
  private setRange(start: number, end: number): void {
    const events = this.chunk.events;
    this.list.batch(() => {
      // Shrink first, then grow, so indices stay simple.
      for (let i = this.start; i < Math.min(start, this.end); i++)
        this.removeFirstIfShown(events[i]?.event_id);
      for (let i = this.end - 1; i >= Math.max(end, this.start); i--)
        this.removeLastIfShown(events[i]?.event_id);
      const keptStart = Math.max(this.start, start);
      const keptEnd = Math.min(this.end, end);
      const overlap = keptStart < keptEnd;
      if (!overlap) this.list.reset([]);
      const growBackTo = overlap ? keptStart : end;
      let at = 0;
      for (let i = start; i < growBackTo; i++) {
        const e = events[i];
        if (e === undefined) continue;
        const item = this.set.itemOf(e);
        if (this.shown(item)) this.list.insert(at++, item);
      }
      if (overlap) {
        for (let i = keptEnd; i < end; i++) {
          const e = events[i];
          if (e === undefined) continue;
          const item = this.set.itemOf(e);
          if (this.shown(item)) this.list.append(item);
        }
      }
    });
    this.start = start;
    this.end = end;
  }

  private removeFirstIfShown(eventId: string | undefined): void {
    if (this.list.length > 0 && this.list.at(0)?.eventId === eventId) this.list.remove(0);
  }

  private removeLastIfShown(eventId: string | undefined): void {
    const last = this.list.length - 1;
    if (last >= 0 && this.list.at(last)?.eventId === eventId) this.list.remove(last);
  }
}
