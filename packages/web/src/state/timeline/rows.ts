/**
 * The timeline as rows to render: the SDK's items (oldest first) turned
 * into messages (grouped by sender: a row continues the
 * previous one when the same sender wrote within five minutes), state
 * summaries (runs of membership changes collapsed into one row), date
 * separators on the first row of each day, the
 * "new messages" line after the fully-read event, and the local echoes of
 * events still being sent. Pure and incremental: a row equal to the one
 * built last time is the same object, so memoised rows do not re-render
 * and the virtualiser keeps its measured heights.
 */
import type { PendingEvent, TimelineItem } from "../../sdk";
import { CallIndex, callSummary, isCallLineType } from "../calls/timeline";
import { isWidgetLineType, widgetSummary } from "../widgets/timeline";
import { creationSummary, groupSummary, stateSummary } from "./summaries";
import type { NameOf } from "./summaries";

/** Consecutive messages from one sender within this time share a header. */
export const GROUP_MS = 5 * 60_000;

/** Event types shown as messages (with sender, body, actions). */
export const MESSAGE_TYPES: ReadonlySet<string> = new Set([
  "m.room.message",
  "m.room.encrypted",
  "m.sticker",
]);

export interface UnreadRow {
  readonly kind: "unread";
  readonly key: string;
}

export interface MessageRow {
  /** A date separator goes above this row (the first of a day): its timestamp. */
  readonly day?: number;
  readonly kind: "message";
  readonly key: string;
  readonly item: TimelineItem;
  /** Same sender as the row above, shortly after: no avatar or name. */
  readonly continued: boolean;
  /** The push rules ask to highlight it (a mention of the user). */
  readonly highlight: boolean;
  readonly mine: boolean;
  /** Users whose read receipt points here (not the user). */
  readonly readers: readonly string[];
}

export interface StateRow {
  /** A date separator goes above this row (the first of a day): its timestamp. */
  readonly day?: number;
  readonly kind: "state";
  readonly key: string;
  /** One state event, or a run of membership changes. */
  readonly items: readonly TimelineItem[];
  readonly text: string;
  readonly readers: readonly string[];
}

export interface PendingRow {
  /** A date separator goes above this row (the first of a day): its timestamp. */
  readonly day?: number;
  readonly kind: "pending";
  readonly key: string;
  readonly pending: PendingEvent;
  readonly continued: boolean;
}

/**
 * A row. Date separators belong to the first row of their day (not rows of
 * their own), so every row's key is an event's and prepending older events
 * keeps the reader's anchor row.
 */
export type TimelineRow = UnreadRow | MessageRow | StateRow | PendingRow;

export interface RowInput {
  readonly items: readonly TimelineItem[];
  readonly pending: readonly PendingEvent[];
  readonly userId: string;
  readonly nameOf: NameOf;
  /** The users (other than the user) whose receipt points at an event. */
  readonly readersOf: (eventId: string) => readonly string[];
  readonly isHighlight: (item: TimelineItem) => boolean;
  /** The fully-read event when the room was opened: the "new messages" line goes after it. */
  readonly fullyRead: string | null;
}

/** The local day of a timestamp, as a key ("2026-11-22"). */
export function dayKey(ts: number): string {
  const d = new Date(ts);
  return `${d.getFullYear()}-${d.getMonth() + 1}-${d.getDate()}`;
}

/**
 * The local day of timestamps read in order: the bounds of the last day
 * seen are kept, so a timeline of 100,000 events builds a Date only when
 * the day changes (local-time conversions are the slow part).
 */
class DayCursor {
  private start = 0;
  private end = -1;
  private key = "";

  keyOf(ts: number): string {
    if (ts >= this.start && ts < this.end) return this.key;
    const d = new Date(ts);
    const y = d.getFullYear();
    const m = d.getMonth();
    const day = d.getDate();
    this.start = new Date(y, m, day).getTime();
    this.end = new Date(y, m, day + 1).getTime();
    this.key = `${y}-${m + 1}-${day}`;
    return this.key;
  }
}

function sameList(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function sameRow(a: TimelineRow, b: TimelineRow): boolean {
  const ra = a as unknown as Record<string, unknown>;
  const rb = b as unknown as Record<string, unknown>;
  const keys = Object.keys(ra);
  if (keys.length !== Object.keys(rb).length) return false;
  for (const k of keys) {
    const x = ra[k];
    const y = rb[k];
    if (x === y) continue;
    if (!Array.isArray(x) || !Array.isArray(y) || !sameList(x, y)) return false;
  }
  return true;
}

/** The previous message row when nothing it shows changed (the common case: reused, no new object). */
function keptMessage(
  old: TimelineRow | undefined,
  item: TimelineItem,
  day: number | undefined,
  continued: boolean,
  highlight: boolean,
  readers: readonly string[],
): MessageRow | null {
  if (old === undefined || old.kind !== "message" || old.item !== item) return null;
  if (old.day !== day || old.continued !== continued || old.highlight !== highlight) return null;
  return sameList(old.readers, readers) ? old : null;
}

/** How far ahead of its expected place a row of the last build is looked for (rows removed in between). */
const LOOKAHEAD = 8;

/**
 * Builds rows; the last build lets unchanged rows keep their identity. Rows
 * come out in the same order as last time (older events prepend, newer
 * append), so the previous row of a key is found by walking the last build
 * alongside: no map of every row per build, which matters at 100,000 events.
 */
export class RowBuilder {
  private previous: readonly TimelineRow[] = [];

  build(input: RowInput): TimelineRow[] {
    const out: TimelineRow[] = [];
    const prev = this.previous;
    let cursor = 0;
    const previousOf = (key: string): TimelineRow | undefined => {
      const end = Math.min(cursor + LOOKAHEAD, prev.length);
      for (let i = cursor; i < end; i++) {
        const row = prev[i] as TimelineRow;
        if (row.key !== key) continue;
        cursor = i + 1;
        return row;
      }
      return undefined;
    };
    let dayTs: number | null = null;
    const push = (candidate: TimelineRow): void => {
      let row = candidate;
      if (dayTs !== null && row.kind !== "unread") {
        row = { ...row, day: dayTs };
        dayTs = null;
      }
      const old = previousOf(row.key);
      const kept = old !== undefined && sameRow(old, row) ? old : row;
      out.push(kept);
    };
    // Call lines (started, ended, missed, declined) read the call's other events: indexed once, when any.
    let calls: CallIndex | undefined;
    const summaryOf = (item: TimelineItem): string | null => {
      if (isCallLineType(item.type)) {
        calls ??= new CallIndex(input.items);
        return callSummary(item, input.nameOf, calls);
      }
      if (isWidgetLineType(item.type)) return widgetSummary(item, input.nameOf);
      return item.stateKey !== undefined ? stateSummary(item, input.nameOf) : null;
    };
    let day = "";
    const days = new DayCursor();
    // The last message's sender and time (null: none, e.g. after a state row or at a new day).
    let lastSender: string | null = null;
    let lastTs = 0;
    let run: TimelineItem[] = [];
    const flushRun = (): void => {
      if (run.length === 0) return;
      const items = run;
      run = [];
      const first = items[0] as TimelineItem;
      const readers = items.flatMap((i) => input.readersOf(i.eventId));
      const text = items.length === 1 ? (summaryOf(first) ?? "") : groupSummary(items, input.nameOf);
      push({ kind: "state", key: `state-${first.eventId}`, items, text, readers });
    };
    const newDay = (ts: number): void => {
      const k = days.keyOf(ts);
      if (k === day) return;
      flushRun();
      day = k;
      lastSender = null;
      dayTs = ts;
    };

    /** The "new messages" line after the fully-read event, when others wrote after it. */
    const marker = (at: number): void => {
      let later = false;
      for (let i = at + 1; i < input.items.length && !later; i++) {
        const next = input.items[i] as TimelineItem;
        later = next.sender !== input.userId && MESSAGE_TYPES.has(next.type);
      }
      if (!later) return;
      flushRun();
      push({ kind: "unread", key: "unread-marker" });
    };

    for (let index = 0; index < input.items.length; index++) {
      const item = input.items[index] as TimelineItem;
      const isMessage = MESSAGE_TYPES.has(item.type);
      const summary = isMessage ? null : summaryOf(item);
      if (!isMessage && summary === null) {
        if (item.eventId === input.fullyRead) marker(index);
        continue;
      }
      newDay(item.ts);
      if (item.type === "m.room.create") {
        // The creation and the creator's setup after it (joins, power levels,
        // rules, name, invites...) as one expandable line, not a bullet each.
        flushRun();
        const items = [item];
        let last = index;
        for (let j = index + 1; j < input.items.length; j++) {
          const next = input.items[j] as TimelineItem;
          if (MESSAGE_TYPES.has(next.type) || next.sender !== item.sender || next.stateKey === undefined)
            break;
          last = j;
          if (summaryOf(next) !== null) items.push(next);
        }
        const readers = items.flatMap((i) => input.readersOf(i.eventId));
        const text = items.length === 1 ? (summary ?? "") : creationSummary(item, input.nameOf);
        push({ kind: "state", key: `state-${item.eventId}`, items, text, readers });
        for (let j = index; j <= last; j++) {
          if ((input.items[j] as TimelineItem).eventId === input.fullyRead) marker(last);
        }
        index = last;
        lastSender = null;
        continue;
      }
      if (!isMessage) {
        if (item.type === "m.room.member") {
          run.push(item);
        } else {
          flushRun();
          run.push(item);
          flushRun();
        }
        lastSender = null;
      } else {
        flushRun();
        const continued = lastSender === item.sender && item.ts - lastTs < GROUP_MS;
        const mine = item.sender === input.userId;
        const highlight = !mine && input.isHighlight(item);
        const readers = input.readersOf(item.eventId);
        const kept = keptMessage(
          previousOf(item.eventId),
          item,
          dayTs ?? undefined,
          continued,
          highlight,
          readers,
        );
        if (kept !== null) {
          dayTs = null;
          out.push(kept);
        } else {
          push({ kind: "message", key: item.eventId, item, continued, highlight, mine, readers });
        }
        lastSender = item.sender;
        lastTs = item.ts;
      }
      if (item.eventId === input.fullyRead) marker(index);
    }
    flushRun();

    // Echoes whose event already came down sync show once, as the event (looked up only when there are any).
    const sent = input.pending.filter((p) => p.eventId !== undefined);
    const shownIds = new Set<string>();
    if (sent.length > 0) for (const item of input.items) shownIds.add(item.eventId);
    for (const p of input.pending) {
      if (p.status === null || p.kind !== "event" || p.type === "m.reaction") continue;
      if (p.eventId !== undefined && shownIds.has(p.eventId)) continue;
      newDay(p.createdAt);
      const continued = lastSender === input.userId && p.createdAt - lastTs < GROUP_MS;
      push({ kind: "pending", key: `txn-${p.txnId}`, pending: p, continued });
      lastSender = input.userId;
      lastTs = p.createdAt;
    }
    this.previous = out;
    return out;
  }
}

/** The index of the row showing an event (a message, or a state run containing it), or -1. */
export function rowIndexOf(rows: readonly TimelineRow[], eventId: string): number {
  return rows.findIndex(
    (r) =>
      (r.kind === "message" && r.item.eventId === eventId) ||
      (r.kind === "state" && r.items.some((i) => i.eventId === eventId)),
  );
}
