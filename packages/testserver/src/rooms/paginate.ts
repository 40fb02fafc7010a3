/**
 * Walking a room's history in either direction from a stream boundary, with
 * history visibility and an event filter applied: the core of /messages,
 * /context, /relations and the sync timeline.
 */
import type { StoredEvent } from "../core/events";
import type { EventFilter } from "./filter";
import { eventMatches } from "./filter";
import type { Room } from "./room";
import { canSee } from "./visibility";

export interface PageRequest {
  /** Boundary: "after stream position n". */
  from: number;
  dir: "b" | "f";
  /** Stop boundary (exclusive side as the spec's `to`). */
  to?: number;
  limit: number;
  filter?: EventFilter;
  /** Extra predicate (relations, threads). */
  where?: (ev: StoredEvent) => boolean;
}

export interface Page {
  /** In the walking order (newest first for dir b). */
  events: StoredEvent[];
  /** The boundary to continue from, when there may be more. */
  next?: number;
}

/** Index of the first event with stream > pos (binary search over the ordered timeline). */
export function indexAfter(room: Room, pos: number): number {
  let lo = 0;
  let hi = room.events.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((room.events[mid] as StoredEvent).stream <= pos) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function paginate(room: Room, userId: string | undefined, req: PageRequest): Page {
  const out: StoredEvent[] = [];
  const keep = (ev: StoredEvent): boolean =>
    (userId === undefined || canSee(room, userId, ev)) &&
    (!req.filter || eventMatches(req.filter, ev)) &&
    (!req.where || req.where(ev));
  if (req.dir === "b") {
    let boundary = req.from;
    for (let i = indexAfter(room, req.from) - 1; i >= 0; i--) {
      const ev = room.events[i] as StoredEvent;
      if (req.to !== undefined && ev.stream <= req.to) return { events: out };
      if (out.length >= req.limit) return { events: out, next: boundary };
      if (keep(ev)) out.push(ev);
      boundary = ev.stream - 1;
    }
    return { events: out };
  }
  let boundary = req.from;
  for (let i = indexAfter(room, req.from); i < room.events.length; i++) {
    const ev = room.events[i] as StoredEvent;
    if (req.to !== undefined && ev.stream > req.to) return { events: out };
    if (out.length >= req.limit) return { events: out, next: boundary };
    if (keep(ev)) out.push(ev);
    boundary = ev.stream;
  }
  // Forward paging ends at the live edge, whose boundary later events continue from.
  return { events: out, next: boundary };
}
