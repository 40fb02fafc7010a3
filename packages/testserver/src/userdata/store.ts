/**
 * Per-user data: account data, tags, receipts, typing, presence, push rules
 * and their evaluation, pushers, filters, delayed events.
 *
 * The methods below the constructor are the cross-domain contract that sync
 * (rooms/) calls; their bodies are filled by the userdata domain.
 */
import type { ServerContext } from "../core/context";
import type { JsonObject } from "../core/events";

export interface UnreadCounts {
  notification_count: number;
  highlight_count: number;
}

export interface RoomUnread extends UnreadCounts {
  /** Per-thread counts, keyed by thread root event id (main timeline excluded). */
  threads: Map<string, UnreadCounts>;
}

export class UserDataStore {
  constructor(protected readonly ctx: ServerContext) {}

  /** A stored filter (POST /user/{userId}/filter), or undefined. */
  filter(_userId: string, _filterId: string): JsonObject | undefined {
    return undefined;
  }

  /** Global account data events ({type, content}) changed after `since` (all when since is 0). */
  globalAccountDataSince(_userId: string, _since: number): JsonObject[] {
    return [];
  }

  /** Room account data (including m.tag) changed after `since`. */
  roomAccountDataSince(_userId: string, _roomId: string, _since: number): JsonObject[] {
    return [];
  }

  /** Ephemeral events for the room after `since`: m.typing (current) and m.receipt (new ones; all on 0). */
  ephemeralSince(_userId: string, _roomId: string, _since: number): JsonObject[] {
    return [];
  }

  /** m.presence events of these users changed after `since`. */
  presenceSince(_userId: string, _since: number, _users: Iterable<string>): JsonObject[] {
    return [];
  }

  /** Sets presence from a sync's set_presence parameter. */
  setPresenceFromSync(_userId: string, _presence: string): void {}

  /** Unread notification and highlight counts for the user in a room, from push rules and receipts. */
  unreadCounts(_userId: string, _roomId: string): RoomUnread {
    return { notification_count: 0, highlight_count: 0, threads: new Map() };
  }
}
