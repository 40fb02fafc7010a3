/**
 * Sending into a room: a timeline event, a state event, a redaction. The
 * caller supplies the transaction id (http/txn.ts makes them), so a retried
 * PUT is idempotent. The path builders are shared with delayed-events.ts,
 * whose sends are these same PUTs with MSC4140 query parameters.
 */
import type { HttpApi } from "../http/types";
import { encodePath } from "../http/types";
import type { EventContent } from "./types/events";
import type { EventIdResponse, RedactRequest } from "./types/send";

/** Path of PUT /rooms/{roomId}/send/{eventType}/{txnId}. */
export function sendPath(roomId: string, eventType: string, txnId: string): string {
  return encodePath`/rooms/${roomId}/send/${eventType}/${txnId}`;
}

/**
 * Path of PUT /rooms/{roomId}/state/{eventType}/{stateKey}. An empty state
 * key leaves a trailing slash, which is the spec's form of "no state key".
 */
export function statePath(roomId: string, eventType: string, stateKey: string): string {
  return encodePath`/rooms/${roomId}/state/${eventType}/${stateKey}`;
}

/** PUT /rooms/{roomId}/send/{eventType}/{txnId}: send a timeline event. */
export function sendEvent(
  http: HttpApi,
  roomId: string,
  eventType: string,
  txnId: string,
  content: EventContent,
): Promise<EventIdResponse> {
  return http.request<EventIdResponse>({
    method: "PUT",
    path: sendPath(roomId, eventType, txnId),
    body: content,
  });
}

/** PUT /rooms/{roomId}/state/{eventType}/{stateKey}: set a piece of room state. */
export function sendStateEvent(
  http: HttpApi,
  roomId: string,
  eventType: string,
  content: EventContent,
  stateKey = "",
): Promise<EventIdResponse> {
  return http.request<EventIdResponse>({
    method: "PUT",
    path: statePath(roomId, eventType, stateKey),
    body: content,
  });
}

/** PUT /rooms/{roomId}/redact/{eventId}/{txnId}: redact an event, with an optional reason. */
export function redactEvent(
  http: HttpApi,
  roomId: string,
  eventId: string,
  txnId: string,
  body: RedactRequest = {},
): Promise<EventIdResponse> {
  return http.request<EventIdResponse>({
    method: "PUT",
    path: encodePath`/rooms/${roomId}/redact/${eventId}/${txnId}`,
    body,
  });
}
