/**
 * One room's in-memory record: its linear timeline, the current state, the
 * state history (so state at any event can be replayed), transaction ids and
 * the relations index. Rooms in the test homeserver have a single linear
 * history, so the server-wide stream position orders a room's events too.
 */
import type { JsonObject, StoredEvent } from "../core/events";

/** Key of a (type, state_key) pair in state maps. */
export function stateKey(type: string, key: string): string {
  return `${type}\u0000${key}`;
}

export class Room {
  /** Every event, oldest first. */
  readonly events: StoredEvent[] = [];
  readonly byId = new Map<string, StoredEvent>();
  /** Current state by stateKey(type, key). */
  readonly state = new Map<string, StoredEvent>();
  /** State events in order, to replay the state at an earlier point. */
  readonly stateEvents: StoredEvent[] = [];
  /** State events per (type, key) in order: fast lookups of state at a point for membership and visibility checks. */
  readonly history = new Map<string, StoredEvent[]>();
  /** State event id -> the state event it replaced (unsigned.replaces_state). */
  readonly replaces = new Map<string, string>();
  /** Children by parent event id, from content["m.relates_to"]. */
  readonly children = new Map<string, StoredEvent[]>();
  /** Idempotency: txn key -> event id. */
  readonly txns = new Map<string, string>();
  /** Room directory visibility. */
  directory: "public" | "private" = "private";
  /** Users who forgot the room (after leaving). */
  readonly forgotten = new Set<string>();

  constructor(
    readonly roomId: string,
    readonly version: string,
  ) {}

  /** Appends an event that passed authorisation. */
  append(event: StoredEvent): void {
    this.events.push(event);
    this.byId.set(event.event_id, event);
    if (event.state_key !== undefined) {
      const key = stateKey(event.type, event.state_key);
      const prev = this.state.get(key);
      if (prev) {
        event.prevContent = prev.content;
        event.prevSender = prev.sender;
        this.replaces.set(event.event_id, prev.event_id);
      }
      this.state.set(key, event);
      this.stateEvents.push(event);
      const list = this.history.get(key);
      if (list) list.push(event);
      else this.history.set(key, [event]);
    }
    const rel = relatesTo(event.content);
    if (rel) {
      const list = this.children.get(rel.eventId) ?? [];
      list.push(event);
      this.children.set(rel.eventId, list);
    }
  }

  /** The current state event's content, or undefined. */
  stateContent(type: string, key = ""): JsonObject | undefined {
    return this.state.get(stateKey(type, key))?.content;
  }

  /** State as it was right after the event at `stream` (inclusive). */
  stateAt(stream: number): Map<string, StoredEvent> {
    const out = new Map<string, StoredEvent>();
    for (const ev of this.stateEvents) {
      if (ev.stream > stream) break;
      out.set(stateKey(ev.type, ev.state_key as string), ev);
    }
    return out;
  }

  /** The state event for (type, key) as of `stream` (inclusive). */
  stateEventAt(type: string, key: string, stream: number): StoredEvent | undefined {
    const list = this.history.get(stateKey(type, key));
    if (!list) return undefined;
    for (let i = list.length - 1; i >= 0; i--) {
      const ev = list[i] as StoredEvent;
      if (ev.stream <= stream) return ev;
    }
    return undefined;
  }

  /** The last event's stream position (0 for an empty room). */
  get lastStream(): number {
    return this.events[this.events.length - 1]?.stream ?? 0;
  }
}

/** The relation an event declares: parent event id and rel_type. */
export function relatesTo(content: JsonObject): { eventId: string; relType: string } | undefined {
  const rel = content["m.relates_to"];
  if (typeof rel !== "object" || rel === null || Array.isArray(rel)) return undefined;
  const r = rel as JsonObject;
  const eventId = r["event_id"];
  const relType = r["rel_type"];
  if (typeof eventId !== "string" || typeof relType !== "string") return undefined;
  return { eventId, relType };
}
