/**
 * The event as the test homeserver stores it. Client-facing events are
 * projections of this (see rooms/ for the serialisation rules).
 */

export type JsonObject = Record<string, unknown>;

export interface StoredEvent {
  event_id: string;
  room_id: string;
  type: string;
  sender: string;
  origin_server_ts: number;
  content: JsonObject;
  state_key?: string;
  /** Top-level `redacts` for m.room.redaction in room versions below 11. */
  redacts?: string;
  /** Position in the server-wide stream (sync tokens, ordering). */
  stream: number;
  /** Depth in the room's linear history (topological ordering). */
  depth: number;
  /** Who sent it with which transaction id, so the sender's device sees unsigned.transaction_id. */
  txn?: { userId: string; deviceId: string; txnId: string };
  /** The event that redacted this one, if any. */
  redactedBy?: StoredEvent;
  /** For state events: the content this replaced, for unsigned.prev_content. */
  prevContent?: JsonObject;
  prevSender?: string;
}
