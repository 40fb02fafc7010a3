/**
 * Wire types of sending calls (room_send.yaml, room_state.yaml,
 * redaction.yaml) and of MSC4140 delayed events (unstable, no spec file).
 */
import type { EventContent } from "./events";

/** The response of send, state and redact. */
export interface EventIdResponse {
  event_id: string;
}

/** The body of PUT /rooms/{roomId}/redact/{eventId}/{txnId}. */
export interface RedactRequest {
  reason?: string;
  /** MSC3912: also redact events related to this one with these rel types. */
  "org.matrix.msc3912.with_relations"?: string[];
}

/** When a delayed event is sent (MSC4140). */
export interface DelayOptions {
  /** Send after this many ms unless restarted or cancelled. */
  delayMs?: number;
  /** Send when the delayed event with this id is sent, instead of on a timer. */
  parentDelayId?: string;
}

/** The response of a delayed send or state call. */
export interface DelayIdResponse {
  delay_id: string;
}

/** What to do with a delayed event: drop it, restart its timer, or send it now. */
export type DelayedEventAction = "cancel" | "restart" | "send";

/** A scheduled delayed event, as GET /delayed_events lists it. */
export interface DelayedEvent {
  delay_id: string;
  room_id: string;
  type: string;
  state_key?: string;
  /** The delay in ms it was scheduled with. */
  delay: number;
  /** When its timer (re)started, ms since the epoch. */
  running_since: number;
  content: EventContent;
  parent_delay_id?: string;
}

/** The response of GET /delayed_events. */
export interface DelayedEventsResponse {
  delayed_events: DelayedEvent[];
  next_batch?: string;
}
