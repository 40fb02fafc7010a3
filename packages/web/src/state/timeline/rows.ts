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
import { groupSummary, stateSummary } from "./summaries";
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

function sameRow(a: TimelineRow, b: TimelineRow): boolean {
  const ra = a as unknown as Record<string, unknown>;
  const rb = b as unknown as Record<string, unknown>;
  const keys = Object.keys(ra);
  if (keys.length !== Object.keys(rb).length) return false;
  for (const k of keys) {
    const x = ra[k];
    const y = rb[k];
    if (x === y) continue;
    if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  }
  return true;
}

/** Builds rows; `previous` (the last build, by key) lets unchanged rows keep their identity. */
export class RowBuilder {
  private previous = new Map<string, TimelineRow>();

  build(input: RowInput): TimelineRow[] {
    const out: TimelineRow[] = [];
    const next = new Map<string, TimelineRow>();
    let dayTs: number | null = null;
    const push = (candidate: TimelineRow): void => {
      let row = candidate;
      if (dayTs !== null && row.kind !== "unread") {
        row = { ...row, day: dayTs };
        dayTs = null;
      }
      const old = this.previous.get(row.key);
      const kept = old !== undefined && sameRow(old, row) ? old : row;
      next.set(kept.key, kept);
      out.push(kept);
    };
    let day = "";
    let lastMessage: { sender: string; ts: number } | null = null;
    let run: TimelineItem[] = [];
    const flushRun = (): void => {
      if (run.length === 0) return;
      const items = run;
      run = [];
      const first = items[0] as TimelineItem;
      const readers = items.flatMap((i) => input.readersOf(i.eventId));
      const text =
        items.length === 1 ? (stateSummary(first, input.nameOf) ?? "") : groupSummary(items, input.nameOf);
      push({ kind: "state", key: `state-${first.eventId}`, items, text, readers });
    };
    const newDay = (ts: number): void => {
      const k = dayKey(ts);
      if (k === day) return;
      flushRun();
      day = k;
      lastMessage = null;
      dayTs = ts;
    };

    /** The "new messages" line after the fully-read event, when others wrote after it. */
    const marker = (item: TimelineItem): void => {
      const at = input.items.indexOf(item);
      const later = input.items.slice(at + 1);
      if (!later.some((i) => i.sender !== input.userId && MESSAGE_TYPES.has(i.type))) return;
      flushRun();
      push({ kind: "unread", key: "unread-marker" });
    };

    const shownIds = new Set<string>();
    for (const item of input.items) {
      const isMessage = MESSAGE_TYPES.has(item.type);
      const summary = isMessage
        ? null
        : item.stateKey !== undefined
          ? stateSummary(item, input.nameOf)
          : null;
      if (!isMessage && summary === null) {
        if (item.eventId === input.fullyRead) marker(item);
        continue;
      }
      newDay(item.ts);
      shownIds.add(item.eventId);
      if (!isMessage) {
        if (item.type === "m.room.member") {
          run.push(item);
        } else {
          flushRun();
          run.push(item);
          flushRun();
        }
        lastMessage = null;
      } else {
        flushRun();
        const prev: { sender: string; ts: number } | null = lastMessage;
        const continued = prev !== null && prev.sender === item.sender && item.ts - prev.ts < GROUP_MS;
        push({
          kind: "message",
          key: item.eventId,
          item,
          continued,
          highlight: item.sender !== input.userId && input.isHighlight(item),
          mine: item.sender === input.userId,
          readers: input.readersOf(item.eventId),
        });
        lastMessage = { sender: item.sender, ts: item.ts };
      }
      if (item.eventId === input.fullyRead) marker(item);
    }
    flushRun();

    for (const p of input.pending) {
      if (p.status === null || p.kind !== "event" || p.type === "m.reaction") continue;
      if (p.eventId !== undefined && shownIds.has(p.eventId)) continue;
      newDay(p.createdAt);
      const prev: { sender: string; ts: number } | null = lastMessage;
      const continued = prev !== null && prev.sender === input.userId && p.createdAt - prev.ts < GROUP_MS;
      push({ kind: "pending", key: `txn-${p.txnId}`, pending: p, continued });
      lastMessage = { sender: input.userId, ts: p.createdAt };
    }
    this.previous = next;
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
