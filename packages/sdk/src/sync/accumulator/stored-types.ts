/**
 * The persisted shape of the sync accumulator (StoredSync.roomsData), a
 * versioned JSON document. snake_case on purpose: it mirrors the sync wire
 * format. Rooms and receipts are arrays of records rather than objects keyed
 * by id, so ids like `__proto__` can never become keys. Changing this shape
 * means bumping ROOMS_DATA_VERSION; the snapshot test guards it.
 */
import type { BasicEvent, ClientEventWithoutRoomId, StrippedStateEvent } from "../../api/types/events";

/** Version of the roomsData document; a stored snapshot of another version is discarded. */
export const ROOMS_DATA_VERSION = 1;

export interface StoredCounts {
  highlight_count: number;
  notification_count: number;
}

export interface StoredThreadCounts extends StoredCounts {
  thread_id: string;
}

/** One receipt: the latest of one user, receipt type and thread. */
export interface StoredReceipt {
  event_id: string;
  receipt_type: string;
  user_id: string;
  /** The receipt's own data as the server sent it (ts, thread_id). */
  data: Record<string, unknown>;
}

export interface StoredSummary {
  "m.heroes"?: string[];
  "m.joined_member_count"?: number;
  "m.invited_member_count"?: number;
}

export interface StoredJoinedRoom {
  room_id: string;
  summary: StoredSummary;
  /** Current state: one event per (type, state_key). */
  state: ClientEventWithoutRoomId[];
  /** The newest timeline events (at most 50), oldest first, and the token to paginate back from the oldest. */
  timeline: { events: ClientEventWithoutRoomId[]; prev_batch?: string };
  account_data: BasicEvent[];
  receipts: StoredReceipt[];
  unread_notifications?: StoredCounts;
  unread_thread_notifications?: StoredThreadCounts[];
}

export interface StoredStrippedRoom {
  room_id: string;
  /** invite_state or knock_state events. */
  state: StrippedStateEvent[];
}

/** The whole document. Global account data lives in the Store's accountData store. */
export interface StoredRoomsData {
  version: typeof ROOMS_DATA_VERSION;
  join: StoredJoinedRoom[];
  invite: StoredStrippedRoom[];
  knock: StoredStrippedRoom[];
}
