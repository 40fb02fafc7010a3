/** send_event (both directions): a widget sends an event; the client feeds one. */

/** fromWidget send_event request data. */
export interface SendEventRequestData {
  type: string;
  content: unknown;
  state_key?: string;
  room_id?: string;
  /** MSC4157: send as a delayed event after this many milliseconds. */
  delay?: number;
  /** MSC4157: the delayed event this one hangs off. */
  parent_delay_id?: string;
  /** MSC4407: sticky event lifetime. */
  sticky_duration_ms?: number;
}

/** fromWidget send_event reply: an event id, or a delay id for delayed sends. */
export interface SendEventResponseData {
  room_id: string;
  event_id?: string;
  delay_id?: string;
}
