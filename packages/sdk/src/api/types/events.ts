/**
 * Wire types of Matrix events as the Client-Server API returns them
 * (definitions/client_event.yaml, client_event_without_room_id.yaml and
 * event-schemas/core-event-schema/stripped_state.yaml). snake_case on purpose:
 * these are the JSON shapes, not models.
 */

/** Event content: an arbitrary JSON object whose shape depends on the event type. */
export type EventContent = Record<string, unknown>;

/** Extra information the homeserver adds to an event (`unsigned`). */
export interface UnsignedData {
  /** Milliseconds since the event was sent, as the local homeserver saw it. */
  age?: number;
  /** The redaction event that redacted this event, if any. */
  redacted_because?: ClientEventWithoutRoomId;
  /** The client's transaction id, when the event was sent by this client. */
  transaction_id?: string;
  /** The content of the state event this one replaced. */
  prev_content?: EventContent;
  /** The event id of the state event this one replaced. */
  replaces_state?: string;
  /** The user's membership at the time of the event (MSC4115). */
  membership?: string;
  /** Aggregations of related events, e.g. `m.thread`, `m.replace`. */
  "m.relations"?: Record<string, unknown>;
  [key: string]: unknown;
}

/** An event as returned by /sync, where the room id is implied by its place in the response. */
export interface ClientEventWithoutRoomId {
  event_id: string;
  type: string;
  sender: string;
  origin_server_ts: number;
  content: EventContent;
  /** Present if and only if this is a state event. */
  state_key?: string;
  unsigned?: UnsignedData;
  /** Top-level `redacts` of m.room.redaction events in room versions before 11. */
  redacts?: string;
}

/** An event as the Client-Server API returns it outside /sync. */
export interface ClientEvent extends ClientEventWithoutRoomId {
  room_id: string;
}

/** A state event: a ClientEvent that carries a state key. */
export interface StateEvent extends ClientEvent {
  state_key: string;
}

/** A stripped state event, as in invite_state and knock_state. */
export interface StrippedStateEvent {
  type: string;
  state_key: string;
  sender: string;
  content: EventContent;
}

/** A basic event with only a type and content: account data, ephemeral and presence events. */
export interface BasicEvent {
  type: string;
  content: EventContent;
}

/** An ephemeral room event (typing, receipts), delivered in sync's `ephemeral`. */
export interface EphemeralEvent extends BasicEvent {
  room_id?: string;
}

/** A presence event as delivered in sync's `presence`. */
export interface PresenceEvent extends BasicEvent {
  sender: string;
}

/** A to-device event as delivered in sync's `to_device`. */
export interface ToDeviceEvent extends BasicEvent {
  sender: string;
  /**
   * Not on the wire: set by the crypto layer on an Olm-decrypted event, the
   * id of the sender's device whose Olm session decrypted it. Absent on
   * events that arrived in the clear.
   */
  senderDevice?: string;
  /**
   * Not on the wire: the embedded client's host said it arrived Olm-encrypted
   * from `sender` and decrypted it. The widget API names no sending device.
   */
  hostDecrypted?: boolean;
}

/** A list of events, as sync's `presence`, `account_data` and `to_device` sections wrap them. */
export interface EventBatch<E> {
  events?: E[];
}
