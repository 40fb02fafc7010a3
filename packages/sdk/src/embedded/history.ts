/**
 * The embedded room's history, read from the host with read_events.
 * read_events has no pagination token: it answers the newest `limit`
 * events of one type, oldest first. So the first read asks for a page per
 * timeline type, and each back-page asks again with a larger limit and
 * keeps what is older than what was already given. How far back that
 * goes is the host's to decide: a host that answers fewer events than
 * asked has given all it will, and the page then carries no `end` token
 * (the timeline's "start of what can be loaded").
 *
 * Reads of several types merge by timestamp, and only the part every read
 * covers is kept: below the oldest event of a type whose read came back
 * full, that type may have more events the host did not send yet, so
 * those older events of other types wait for the next page. Events
 * already given (the first read, earlier pages, the host's pushes) are
 * never given twice.
 */
import type { WidgetApi } from "@lattice/widget-api";
import type { ClientEventWithoutRoomId } from "../api/types/events";

/** Events of the first read (SPEC §9 initial-sync limit), and of each back-page at least. */
export const HISTORY_PAGE = 30;

const TOKEN = /^h(\d+)$/;

type Event = ClientEventWithoutRoomId;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A read event in sync shape (no room_id), or null when it is not one of the room's events. */
export function toSyncEvent(raw: unknown, roomId: string): Event | null {
  if (!isRecord(raw) || typeof raw["event_id"] !== "string" || typeof raw["type"] !== "string") return null;
  if (raw["room_id"] !== undefined && raw["room_id"] !== roomId) return null;
  const { room_id: _room, ...event } = raw;
  return event as unknown as Event;
}

/** One back-page: newest first, and the token of the next one (none when the host gave all it will). */
export interface HistoryPage {
  chunk: Event[];
  end?: string;
}

/** Reads the granted room's history through the host. */
export class WidgetHistory {
  private readonly given = new Set<string>();
  /** The oldest timestamp given so far: a page gives only what is older (or equal, if not given). */
  private oldestTs = Number.POSITIVE_INFINITY;

  public constructor(
    private readonly widget: WidgetApi,
    private readonly roomId: string,
    private readonly types: readonly string[],
  ) {}

  /** Events given some other way (the host's pushes): a page never repeats them. */
  public markGiven(events: readonly Event[]): void {
    for (const e of events) this.given.add(e.event_id);
  }

  /** The first read: the newest events (oldest first), and the back-page token. */
  public async first(): Promise<{ events: Event[]; token: string }> {
    const { events } = await this.read(HISTORY_PAGE);
    const kept = events.slice(-HISTORY_PAGE);
    this.give(kept);
    return { events: kept, token: `h${HISTORY_PAGE}` };
  }

  /**
   * The page before `from` (a token of first() or of an earlier page). An
   * unknown token reads from the start again: nothing given is repeated.
   */
  public async page(from: string, limit: number): Promise<HistoryPage> {
    if (this.types.length === 0) return { chunk: [] };
    const had = Number(TOKEN.exec(from)?.[1] ?? 0);
    const want = had + Math.max(limit, HISTORY_PAGE);
    const { events, full } = await this.read(want);
    const older = events.filter((e) => !this.given.has(e.event_id) && e.origin_server_ts <= this.oldestTs);
    this.give(older);
    return { chunk: older.reverse(), ...(full ? { end: `h${want}` } : {}) };
  }

  private give(events: readonly Event[]): void {
    for (const e of events) {
      this.given.add(e.event_id);
      this.oldestTs = Math.min(this.oldestTs, e.origin_server_ts);
    }
  }

  /**
   * The newest `limit` events of each type, merged oldest first and cut to
   * the part every read covers; `full` when some read came back full (the
   * host may have more).
   */
  private async read(limit: number): Promise<{ events: Event[]; full: boolean }> {
    const opts = { roomIds: [this.roomId], limit };
    const lists = await Promise.all(
      this.types.map(async (type) =>
        (await this.widget.readRoomEvents(type, opts)).flatMap((raw) => toSyncEvent(raw, this.roomId) ?? []),
      ),
    );
    let cutoff = Number.NEGATIVE_INFINITY;
    let full = false;
    for (const list of lists) {
      if (list.length < limit) continue;
      full = true;
      cutoff = Math.max(cutoff, Math.min(...list.map((e) => e.origin_server_ts)));
    }
    const byId = new Map<string, Event>();
    for (const e of lists.flat()) if (e.origin_server_ts >= cutoff) byId.set(e.event_id, e);
    const events = [...byId.values()].sort((a, b) => a.origin_server_ts - b.origin_server_ts);
    return { events, full };
  }
}
