/**
 * TimelineSet: a room's materialised timeline, the chunks of events it has
 * loaded, which chunk holds each event, and the relations among them. Sync
 * appends to the live chunk (a limited sync starts a new one, leaving a gap);
 * back-pagination via /messages grows a chunk and merges it into its
 * neighbour once a known event comes back; /context and timestamp_to_event
 * open a chunk around an event. Edits, reactions and redactions are applied
 * as events arrive; a later redaction strips its target in place. Pages
 * pass through the injected EventDecryptor before they are placed, and a
 * late decryption replaces its event in place (`replaceEvent`).
 */
import type { ClientEventWithoutRoomId } from "../../api/types/events";
import { eventContext, messages, timestampToEvent } from "../../api/timeline";
import type { HttpApi } from "../../http/types";
import type { Scheduler } from "../../util/scheduler";
import { own } from "../json";
import { isRedacted, redactedEventId, redactEvent } from "../redaction";
import type { RoomVersionRules } from "../room-versions";
import { ModelError, NO_LATEST_TIMELINE_MESSAGE } from "../errors";
import { decryptPage } from "./decryptor";
import type { EventDecryptor } from "./decryptor";
import { EventChunk } from "./EventChunk";
import { SCROLLBACK_PAGE_SIZE, withRetry } from "./pagination";
import { RelationIndex } from "./RelationIndex";
import { buildItem } from "./TimelineItem";
import { isUsableEvent, usableEvents } from "./validate";
import type { TimelineItem } from "./TimelineItem";
import { DEFAULT_VALIDATION_LIMITS } from "../../sync/validate/limits";
import { isEchoableToken } from "../../sync/validate/tokens";

export interface TimelineSetOptions {
  roomId: string;
  http: HttpApi;
  scheduler: Scheduler;
  /** The room version rules, read when a redaction is applied. */
  rules: () => RoomVersionRules;
  pageSize?: number;
  retryDelayMs?: number;
  /** Lazy-loaded member events that came with a page (/messages and /context `state`). */
  onMembers?: (events: ClientEventWithoutRoomId[]) => void;
  /** Decrypts fetched pages before they enter the set (crypto on). */
  decryptor?: EventDecryptor;
  /**
   * Every fetched page (/messages, /context), decrypted, before it is
   * placed: the room's threads read the roots' bundled summaries from it.
   */
  onPage?: (events: readonly ClientEventWithoutRoomId[]) => void;
}

/** The live events a set starts from (the room's recent sync events). */
export interface TimelineSeed {
  events: readonly ClientEventWithoutRoomId[];
  backToken: string | null;
  /** Relation types of seed events that were redacted before the set existed (event id -> rel_type). */
  redactedRelTypes?: ReadonlyMap<string, string>;
}

/** Events of a set's listeners. */
export type TimelineSetChange =
  /** A limited sync replaced the live chunk; the old one stays behind a gap. */
  | { readonly type: "newLive"; readonly live: EventChunk }
  /** The shown form of these events changed (edit, reaction, redaction). */
  | { readonly type: "relations"; readonly eventIds: readonly string[] };

export class TimelineSet {
  live: EventChunk;
  readonly relations = new RelationIndex();
  private readonly index = new Map<string, EventChunk>();
  private readonly listeners = new Set<(change: TimelineSetChange) => void>();
  private readonly inflight = new Map<EventChunk, Map<string, Promise<number>>>();

  constructor(
    private readonly options: TimelineSetOptions,
    seed: TimelineSeed = { events: [], backToken: null },
  ) {
    this.live = new EventChunk({ backToken: seed.backToken, live: true });
    for (const [id, relType] of seed.redactedRelTypes ?? []) this.relations.rememberRelType(id, relType);
    this.place(this.live, "f", seed.events);
  }

  get roomId(): string {
    return this.options.roomId;
  }

  /** Subscribes to set-level changes; returns the unsubscribe. */
  on(listener: (change: TimelineSetChange) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** The chunk holding an event. */
  chunkOf(eventId: string): EventChunk | undefined {
    return this.index.get(eventId);
  }

  /** The event with this id, as stored. */
  event(eventId: string): ClientEventWithoutRoomId | undefined {
    const chunk = this.index.get(eventId);
    if (chunk === undefined) return undefined;
    return chunk.events[chunk.indexOf(eventId)];
  }

  /** Every loaded event, chunk by chunk (each chunk oldest first). */
  allEvents(): ClientEventWithoutRoomId[] {
    const chunks = new Set(this.index.values());
    return [...chunks].flatMap((c) => c.events);
  }

  /** The item of an event with the relations known now. */
  itemOf(event: ClientEventWithoutRoomId): TimelineItem {
    return buildItem(event, this.relations);
  }

  /** Adds a sync timeline batch to the live end. */
  addLive(
    events: readonly ClientEventWithoutRoomId[],
    limited: boolean,
    prevBatch: string | undefined,
  ): void {
    if (limited && this.live.events.length > 0) {
      this.live.live = false;
      this.live = new EventChunk({ backToken: prevBatch ?? null, live: true });
      this.emit({ type: "newLive", live: this.live });
    } else if (limited) {
      this.live.backToken = prevBatch ?? null;
    }
    this.place(
      this.live,
      "f",
      events.filter((e) => !this.index.has(e.event_id)),
    );
  }

  /**
   * Fetches one page in a direction from a chunk's edge and adds it.
   * Resolves with the number of new events (0 at the start of the room).
   * Concurrent calls for the same edge share one request.
   */
  paginate(
    chunk: EventChunk,
    dir: "b" | "f",
    limit = this.options.pageSize ?? SCROLLBACK_PAGE_SIZE,
  ): Promise<number> {
    let byDir = this.inflight.get(chunk);
    if (byDir === undefined) {
      byDir = new Map();
      this.inflight.set(chunk, byDir);
    }
    const running = byDir.get(dir);
    if (running !== undefined) return running;
    const promise = this.fetchPage(chunk, dir, limit).finally(() => {
      byDir.delete(dir);
      if (byDir.size === 0) this.inflight.delete(chunk);
    });
    byDir.set(dir, promise);
    return promise;
  }

  private async fetchPage(chunk: EventChunk, dir: "b" | "f", limit: number): Promise<number> {
    const from = dir === "b" ? chunk.backToken : chunk.forwardToken;
    if (from === null || (dir === "f" && chunk.live)) return 0;
    const page = await withRetry(
      () => messages(this.options.http, this.options.roomId, { from, dir, limit }),
      this.options.scheduler,
      this.options.retryDelayMs !== undefined ? { delayMs: this.options.retryDelayMs } : {},
    );
    this.reportMembers(own(page, "state"));
    const events = await this.decrypt(usableEvents(own(page, "chunk")));
    this.options.onPage?.(events);
    // No end token, or an empty page, means this edge of the room is reached.
    const end = tokenOf(own(page, "end"));
    const next = events.length > 0 && end !== from ? end : null;
    return dir === "b" ? this.ingestBackward(chunk, events, next) : this.ingestForward(chunk, events, next);
  }

  /** Adds events before `chunk` (newest first, as /messages dir=b answers). */
  ingestBackward(
    chunk: EventChunk,
    newestFirst: readonly ClientEventWithoutRoomId[],
    next: string | null,
  ): number {
    const fresh: ClientEventWithoutRoomId[] = [];
    for (const e of newestFirst) {
      const holder = this.index.get(e.event_id);
      if (holder === chunk) continue;
      if (holder !== undefined) {
        // The gap is closed: what lies before `e` is already in `holder`.
        fresh.reverse();
        this.merge(holder, chunk, fresh);
        return fresh.length;
      }
      fresh.push(e);
    }
    chunk.backToken = next;
    fresh.reverse();
    this.place(chunk, "b", fresh);
    return fresh.length;
  }

  /** Adds events after `chunk` (oldest first, as /messages dir=f answers). */
  ingestForward(
    chunk: EventChunk,
    oldestFirst: readonly ClientEventWithoutRoomId[],
    next: string | null,
  ): number {
    const fresh: ClientEventWithoutRoomId[] = [];
    for (const e of oldestFirst) {
      const holder = this.index.get(e.event_id);
      if (holder === chunk) continue;
      if (holder !== undefined) {
        this.merge(chunk, holder, fresh);
        return fresh.length;
      }
      fresh.push(e);
    }
    chunk.forwardToken = next;
    this.place(chunk, "f", fresh);
    return fresh.length;
  }

  /**
   * The chunk holding `eventId`, loading it with /context when it is not
   * loaded. `limit` is the number of events around it to ask for.
   */
  async jumpToEvent(eventId: string, limit = 20): Promise<EventChunk> {
    const known = this.index.get(eventId);
    if (known !== undefined) return known;
    const ctx = await withRetry(
      () => eventContext(this.options.http, this.options.roomId, eventId, { limit }),
      this.options.scheduler,
      this.options.retryDelayMs !== undefined ? { delayMs: this.options.retryDelayMs } : {},
    );
    const raw: unknown = own(ctx, "event");
    const event = isUsableEvent(raw) ? raw : undefined;
    if (event === undefined || event.event_id !== eventId) {
      throw new ModelError("EVENT_NOT_FOUND", `Event ${eventId} not found`, { cause: ctx });
    }
    this.reportMembers(own(ctx, "state"));
    const before = usableEvents(own(ctx, "events_before"));
    const after = usableEvents(own(ctx, "events_after"));
    const clear = await this.decrypt([event, ...before, ...after]);
    this.options.onPage?.(clear);
    const again = this.index.get(eventId);
    if (again !== undefined) return again;
    const chunk = new EventChunk({
      backToken: tokenOf(own(ctx, "start")),
      forwardToken: tokenOf(own(ctx, "end")),
    });
    this.place(chunk, "f", clear.slice(0, 1));
    let home = chunk;
    const unsubscribe = chunk.on((change) => {
      if (change.type === "merged") home = change.into;
    });
    try {
      this.ingestBackward(home, clear.slice(1, 1 + before.length), tokenOf(own(ctx, "start")));
      this.ingestForward(home, clear.slice(1 + before.length), tokenOf(own(ctx, "end")));
    } finally {
      unsubscribe();
    }
    return this.index.get(eventId) ?? home;
  }

  /** Jumps to the event closest to `ts` (timestamp_to_event, then /context). */
  async jumpToDate(ts: number, dir: "f" | "b" = "f"): Promise<{ chunk: EventChunk; eventId: string }> {
    const found: unknown = await timestampToEvent(this.options.http, this.options.roomId, ts, dir);
    const eventId = (found as { event_id?: unknown } | null)?.event_id;
    if (typeof eventId !== "string") {
      throw new ModelError("EVENT_NOT_FOUND", `No event found at ${ts}`, { cause: found });
    }
    return { chunk: await this.jumpToEvent(eventId), eventId };
  }

  /**
   * The chunk of the room's newest event as the server sees it; throws 'No
   * message returned when trying to construct getLatestTimeline' when the
   * server returns none.
   */
  async loadLatest(): Promise<{ chunk: EventChunk; eventId: string }> {
    const page = await messages(this.options.http, this.options.roomId, { dir: "b", limit: 1 });
    const latest = usableEvents(own(page, "chunk"))[0];
    if (latest === undefined) throw new ModelError("NO_LATEST_TIMELINE", NO_LATEST_TIMELINE_MESSAGE);
    return { chunk: await this.jumpToEvent(latest.event_id), eventId: latest.event_id };
  }

  /**
   * A late decryption: the event's clear form replaces the stand-in where it
   * is loaded (its windows get an update), and its relations apply (a
   * decrypted edit or reaction updates its target). False when not loaded.
   */
  replaceEvent(event: ClientEventWithoutRoomId): boolean {
    const chunk = this.index.get(event.event_id);
    if (chunk === undefined) return false;
    const i = chunk.indexOf(event.event_id);
    const old = chunk.events[i];
    if (old === undefined || isRedacted(old)) return false;
    const shown = this.redactedIfKnown(event);
    chunk.events[i] = shown;
    chunk.emit({ type: "replace", index: i });
    this.track([shown]);
    return true;
  }

  private decrypt(events: ClientEventWithoutRoomId[]): Promise<ClientEventWithoutRoomId[]> {
    return decryptPage(this.options.decryptor, this.options.roomId, events);
  }

  private reportMembers(state: unknown): void {
    const members = usableEvents(state).filter(
      (e) => e.type === "m.room.member" && e.state_key !== undefined,
    );
    if (members.length > 0) this.options.onMembers?.(members);
  }

  /** Puts events at one end of a chunk, indexes them and applies their relations. */
  private place(chunk: EventChunk, end: "b" | "f", events: readonly ClientEventWithoutRoomId[]): void {
    if (events.length === 0) return;
    for (const e of events) this.relations.remember(e);
    const prepared = events.map((e) => this.redactedIfKnown(e));
    if (end === "b") chunk.events.unshift(...prepared);
    else chunk.events.push(...prepared);
    for (const e of prepared) this.index.set(e.event_id, chunk);
    chunk.emit({ type: end === "b" ? "prepend" : "append", count: prepared.length });
    this.track(prepared);
  }

  /** An event arriving after its redaction is stripped before it is shown. */
  private redactedIfKnown(event: ClientEventWithoutRoomId): ClientEventWithoutRoomId {
    const redaction = this.relations.redactions.get(event.event_id);
    if (redaction === undefined || isRedacted(event)) return event;
    return redactEvent(event, redaction, this.options.rules());
  }

  private track(events: readonly ClientEventWithoutRoomId[]): void {
    const changed = new Set<string>();
    for (const e of events) {
      const ids = this.relations.add(e);
      // A target redacted in place already told its windows (a replace change).
      const replaced = e.type === "m.room.redaction" ? this.redactInPlace(e) : undefined;
      for (const id of ids) if (id !== replaced) changed.add(id);
    }
    if (changed.size > 0) this.emit({ type: "relations", eventIds: [...changed] });
  }

  /** Strips a redaction's target where it is loaded; returns its id when it did. */
  private redactInPlace(redaction: ClientEventWithoutRoomId): string | undefined {
    const target = redactedEventId(redaction);
    if (target === undefined) return undefined;
    const chunk = this.index.get(target);
    if (chunk === undefined) return undefined;
    const i = chunk.indexOf(target);
    const original = chunk.events[i];
    if (original === undefined || isRedacted(original)) return undefined;
    chunk.events[i] = redactEvent(original, redaction, this.options.rules());
    chunk.emit({ type: "replace", index: i });
    return target;
  }

  /** Joins `earlier`, the events `between` and `later` into `later`. */
  private merge(earlier: EventChunk, later: EventChunk, between: readonly ClientEventWithoutRoomId[]): void {
    for (const e of between) this.relations.remember(e);
    const prepared = between.map((e) => this.redactedIfKnown(e));
    const moved = [...earlier.events, ...prepared];
    later.events.unshift(...moved);
    later.backToken = earlier.backToken;
    for (const e of moved) this.index.set(e.event_id, later);
    later.emit({ type: "prepend", count: moved.length });
    earlier.events.length = 0;
    earlier.emit({ type: "merged", into: later, offset: 0 });
    this.track(prepared);
  }

  private emit(change: TimelineSetChange): void {
    for (const listener of [...this.listeners]) listener(change);
  }
}

/** A pagination token from untrusted JSON, or null. */
/** A pagination token to send back as `from`, or null: one that would not survive the query string ends pagination. */
function tokenOf(value: unknown): string | null {
  return isEchoableToken(value, DEFAULT_VALIDATION_LIMITS.maxStringLength) ? value : null;
}
