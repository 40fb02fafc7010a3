/**
 * The threads of one room (SPEC §3 Thread: root, reply count, whether the
 * user participated, last event), built from the server's bundled summaries
 * (unsigned.m.relations.m.thread on roots) and from thread replies seen in
 * sync, pagination and /relations; with the per-thread unread counts of
 * sync. Published as an ObservableList, most recent activity first. A late
 * decryption replaces the root or reply it names in place (`replaceEvent`).
 *
 * Counting: a bundle is the server's snapshot of the thread when it sent
 * the root; the newest bundle (by its latest event) wins, even with a lower
 * count (replies redacted since). Replies seen after the bundle's latest
 * event are added to it; those at or before it are already counted. A
 * redacted reply leaves the thread and its count.
 */
import type { ClientEventWithoutRoomId } from "../../api/types/events";
import type { UnreadCounts } from "../../sync/validate/types";
import { ObservableList } from "../../util/observable-list";
import type { ReadonlyObservableList } from "../../util/observable-list";
import { isJsonObject } from "../json";
import { redactedEventId } from "../redaction";
import { bundledThreadSummary, threadMembershipOf } from "../replies";
import { RelationIndex } from "../timeline/RelationIndex";

/** A thread as the UI shows it. */
export interface Thread {
  readonly rootId: string;
  /** The root event, once seen. */
  readonly root?: ClientEventWithoutRoomId;
  readonly replyCount: number;
  /** Whether the current user sent the root or a reply. */
  readonly participated: boolean;
  readonly lastEvent?: ClientEventWithoutRoomId;
  /** The thread's unread counts from sync. */
  readonly unread: UnreadCounts;
  /** The event the user's threaded read receipt (thread_id = root) points at. */
  readonly readUpTo?: string;
}

interface ThreadRecord {
  root?: ClientEventWithoutRoomId;
  bundledCount: number;
  bundledLatestTs: number;
  bundledParticipated: boolean;
  bundledLatest?: ClientEventWithoutRoomId;
  /** Replies seen, with their timestamps. */
  seen: Map<string, ClientEventWithoutRoomId>;
  /** Replies redacted (never taken in again). */
  removed: Set<string>;
  unread: UnreadCounts;
  readUpTo?: string;
  snapshot: Thread;
}

const NO_UNREAD: UnreadCounts = Object.freeze({ highlightCount: 0, notificationCount: 0 });

function looksLikeEvent(value: unknown): value is ClientEventWithoutRoomId {
  return (
    isJsonObject(value) &&
    typeof value["event_id"] === "string" &&
    typeof value["sender"] === "string" &&
    typeof value["type"] === "string" &&
    typeof value["origin_server_ts"] === "number" &&
    isJsonObject(value["content"])
  );
}

export class RoomThreads {
  private readonly records = new Map<string, ThreadRecord>();
  private readonly listValue = new ObservableList<Thread>();
  private readonly replyListeners = new Set<(rootId: string, event: ClientEventWithoutRoomId) => void>();
  private readonly relatedListeners = new Set<(event: ClientEventWithoutRoomId) => void>();
  private readonly decryptedListeners = new Set<(event: ClientEventWithoutRoomId) => void>();

  constructor(private readonly userId: string) {}

  /** The threads, most recent activity first. */
  get list(): ReadonlyObservableList<Thread> {
    return this.listValue;
  }

  /** A thread by root id. */
  get(rootId: string): Thread | undefined {
    return this.records.get(rootId)?.snapshot;
  }

  /** Listens for thread replies not seen before (thread timelines follow them); returns the unsubscribe. */
  onReply(listener: (rootId: string, event: ClientEventWithoutRoomId) => void): () => void {
    this.replyListeners.add(listener);
    return () => {
      this.replyListeners.delete(listener);
    };
  }

  /**
   * Listens for live edits, reactions and redactions, which carry no thread
   * relation of their own (thread timelines apply those aimed at their
   * events); returns the unsubscribe.
   */
  onRelated(listener: (event: ClientEventWithoutRoomId) => void): () => void {
    this.relatedListeners.add(listener);
    return () => {
      this.relatedListeners.delete(listener);
    };
  }

  /** Hands live edits, reactions and redactions to the thread timelines. */
  notifyRelated(events: readonly ClientEventWithoutRoomId[]): void {
    if (this.relatedListeners.size === 0) return;
    for (const event of events) {
      if (event.type !== "m.room.redaction" && !RelationIndex.isAggregation(event)) continue;
      for (const listener of [...this.relatedListeners]) listener(event);
    }
  }

  /** The number of threads known. */
  get size(): number {
    return this.records.size;
  }

  /**
   * Takes in events from any source: roots (with their bundled summary) and
   * replies; `lookup` finds a root seen earlier. Returns the root ids of
   * threads that changed.
   */
  addEvents(
    events: readonly ClientEventWithoutRoomId[],
    lookup?: (eventId: string) => ClientEventWithoutRoomId | undefined,
  ): string[] {
    const changed = new Set<string>();
    this.listValue.batch(() => {
      for (const event of events) {
        const rootId = this.take(event);
        if (rootId !== undefined) changed.add(rootId);
      }
      // A root may come before its first reply in the same batch.
      for (const event of events) {
        const record = this.records.get(event.event_id);
        if (record === undefined || record.root !== undefined) continue;
        record.root = event;
        changed.add(event.event_id);
      }
      // Or in an earlier one: the room may still hold it.
      for (const id of changed) {
        const record = this.records.get(id);
        if (record === undefined || record.root !== undefined) continue;
        const root = lookup?.(id);
        if (root !== undefined) record.root = root;
      }
      for (const id of changed) this.publish(id);
    });
    return [...changed];
  }

  /**
   * A late-decrypted event replaces its stand-in as a root, a reply or a
   * bundled last reply (and thread timelines hear of it); an event that only
   * now shows a thread relation is taken in. Returns whether a thread held it.
   */
  replaceEvent(
    event: ClientEventWithoutRoomId,
    lookup?: (eventId: string) => ClientEventWithoutRoomId | undefined,
  ): boolean {
    const id = event.event_id;
    const changed: string[] = [];
    for (const [rootId, record] of this.records) {
      const isRoot = record.root?.event_id === id;
      const isLatest = record.bundledLatest?.event_id === id;
      if (!isRoot && !isLatest && !record.seen.has(id)) continue;
      if (isRoot) record.root = event;
      if (isLatest) record.bundledLatest = event;
      if (record.seen.has(id)) record.seen.set(id, event);
      changed.push(rootId);
    }
    if (changed.length > 0) {
      this.listValue.batch(() => {
        for (const rootId of changed) this.publish(rootId);
      });
      for (const listener of [...this.decryptedListeners]) listener(event);
      return true;
    }
    return threadMembershipOf(event).threadRootId !== undefined && this.addEvents([event], lookup).length > 0;
  }

  /** Listens for late-decrypted thread events (thread timelines replace them); returns the unsubscribe. */
  onDecrypted(listener: (event: ClientEventWithoutRoomId) => void): () => void {
    this.decryptedListeners.add(listener);
    return () => {
      this.decryptedListeners.delete(listener);
    };
  }

  /** Replaces the per-thread unread counts (sync's unread_thread_notifications). */
  setUnread(counts: ReadonlyMap<string, UnreadCounts>): void {
    this.listValue.batch(() => {
      for (const [rootId, record] of this.records) {
        const next = counts.get(rootId) ?? NO_UNREAD;
        if (
          next.highlightCount === record.unread.highlightCount &&
          next.notificationCount === record.unread.notificationCount
        )
          continue;
        record.unread = next;
        this.publish(rootId);
      }
      for (const [rootId, unread] of counts) {
        if (this.records.has(rootId)) continue;
        this.record(rootId).unread = unread;
        this.publish(rootId);
      }
    });
  }

  /** Sets the user's threaded read receipts (root id -> event id). */
  setReadReceipts(receipts: ReadonlyMap<string, string>): void {
    this.listValue.batch(() => {
      for (const [rootId, eventId] of receipts) {
        const record = this.record(rootId);
        if (record.readUpTo === eventId) continue;
        record.readUpTo = eventId;
        this.publish(rootId);
      }
    });
  }

  private take(event: ClientEventWithoutRoomId): string | undefined {
    const summary = bundledThreadSummary(event);
    if (summary !== undefined) {
      const record = this.record(event.event_id);
      record.root = event;
      record.bundledParticipated ||= summary.currentUserParticipated;
      const latest = looksLikeEvent(summary.latestEvent) ? summary.latestEvent : undefined;
      if (latest === undefined) {
        record.bundledCount = Math.max(record.bundledCount, summary.count);
      } else if (latest.origin_server_ts >= record.bundledLatestTs && !record.removed.has(latest.event_id)) {
        // The newer snapshot wins whole: its count goes with its latest event.
        record.bundledCount = summary.count;
        record.bundledLatest = latest;
        record.bundledLatestTs = latest.origin_server_ts;
      }
      return event.event_id;
    }
    const existing = this.records.get(event.event_id);
    if (existing !== undefined && existing.root === undefined) {
      existing.root = event;
      return event.event_id;
    }
    if (event.type === "m.room.redaction") return this.unthread(event);
    const rootId = threadMembershipOf(event).threadRootId;
    if (rootId === undefined) return undefined;
    const record = this.record(rootId);
    if (record.seen.has(event.event_id) || record.removed.has(event.event_id)) return undefined;
    record.seen.set(event.event_id, event);
    for (const listener of [...this.replyListeners]) listener(rootId, event);
    return rootId;
  }

  /** A redacted reply leaves its thread: out of the seen replies, the count and the latest. */
  private unthread(redaction: ClientEventWithoutRoomId): string | undefined {
    const target = redactedEventId(redaction);
    if (target === undefined) return undefined;
    for (const [rootId, record] of this.records) {
      const seen = record.seen.get(target);
      const isLatest = record.bundledLatest?.event_id === target;
      if ((seen === undefined && !isLatest) || record.removed.has(target)) continue;
      record.removed.add(target);
      // The bundle counted it when it is the bundle's latest or no newer than it.
      const inBundle = isLatest || (seen !== undefined && seen.origin_server_ts <= record.bundledLatestTs);
      if (inBundle && record.bundledCount > 0) record.bundledCount--;
      record.seen.delete(target);
      if (isLatest) delete record.bundledLatest;
      return rootId;
    }
    return undefined;
  }

  /**
   * Whether the client lacks a thread's summary from the server: no root
   * yet, or a root without a bundled summary while replies are known (a
   * server without /threads: fetch the root with /event or /context).
   */
  needsRoot(rootId: string): boolean {
    const record = this.records.get(rootId);
    if (record === undefined) return false;
    if (record.root === undefined) return true;
    return record.bundledLatest === undefined && record.bundledCount === 0 && record.seen.size > 0;
  }

  private record(rootId: string): ThreadRecord {
    let record = this.records.get(rootId);
    if (record === undefined) {
      record = {
        bundledCount: 0,
        bundledLatestTs: -Infinity,
        bundledParticipated: false,
        seen: new Map(),
        removed: new Set(),
        unread: NO_UNREAD,
        snapshot: { rootId, replyCount: 0, participated: false, unread: NO_UNREAD },
      };
      this.records.set(rootId, record);
    }
    return record;
  }

  /** Rebuilds a thread's snapshot and moves it to its place in the list. */
  private publish(rootId: string): void {
    const record = this.records.get(rootId);
    if (record === undefined) return;
    let newer = 0;
    let last = record.bundledLatest;
    let participated = record.bundledParticipated || record.root?.sender === this.userId;
    for (const e of record.seen.values()) {
      if (e.origin_server_ts > record.bundledLatestTs && e.event_id !== record.bundledLatest?.event_id)
        newer++;
      if (last === undefined || e.origin_server_ts >= last.origin_server_ts) last = e;
      if (e.sender === this.userId) participated = true;
    }
    const snapshot: Thread = {
      rootId,
      ...(record.root !== undefined ? { root: record.root } : {}),
      replyCount: Math.max(record.bundledCount + newer, record.seen.size),
      participated,
      ...(last !== undefined ? { lastEvent: last } : {}),
      unread: record.unread,
      ...(record.readUpTo !== undefined ? { readUpTo: record.readUpTo } : {}),
    };
    const old = record.snapshot;
    record.snapshot = snapshot;
    const list = this.listValue;
    let index = -1;
    for (let i = 0; i < list.length; i++) if (list.at(i)?.rootId === rootId) index = i;
    if (index >= 0 && activity(old) === activity(snapshot)) {
      list.update(index, snapshot);
      return;
    }
    if (index >= 0) list.remove(index);
    let at = 0;
    while (at < list.length && activity(list.at(at)) >= activity(snapshot)) at++;
    list.insert(at, snapshot);
  }
}

function activity(thread: Thread | undefined): number {
  return thread?.lastEvent?.origin_server_ts ?? thread?.root?.origin_server_ts ?? 0;
}
