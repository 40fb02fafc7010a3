/**
 * MSC4354 sticky events, on their unstable names: a timeline send with
 * `org.matrix.msc4354.sticky_duration_ms` makes the event sticky (delivered
 * to members for that long even past a gappy sync). It may be delayed too
 * (MSC4140's query beside it). Servers advertise support in /versions'
 * unstable_features; assertStickyEventsSupported refuses before any request
 * when they do not, since a server that ignores the parameter would send a
 * plain event.
 */
import type { HttpApi } from "../http/types";
import { ApiError } from "./errors";
import { sendPath } from "./send";
import type { EventContent } from "./types/events";
import type { DelayOptions } from "./types/send";
import { DELAYED_EVENTS_DELAY, DELAYED_EVENTS_PARENT_DELAY_ID, STICKY_DURATION_QUERY } from "./unstable";
import { STICKY_EVENTS_FEATURE } from "./unstable";

/** The message thrown when the server does not advertise MSC4354. */
export const STICKY_EVENTS_UNSUPPORTED = "Server does not support sticky events";

/** The answer of a sticky send: an event id, or a delay id when it was delayed. */
export interface StickySendResponse {
  event_id?: string;
  delay_id?: string;
}

/** Throws ApiError 'Server does not support sticky events' unless /versions lists org.matrix.msc4354. */
export function assertStickyEventsSupported(unstableFeatures: ReadonlySet<string>): void {
  if (!unstableFeatures.has(STICKY_EVENTS_FEATURE.unstable))
    throw new ApiError("UNSUPPORTED_BY_SERVER", STICKY_EVENTS_UNSUPPORTED);
}

/** PUT /rooms/{roomId}/send/{eventType}/{txnId}?org.matrix.msc4354.sticky_duration_ms=…[&delay]. */
export function sendStickyEvent(
  http: HttpApi,
  roomId: string,
  eventType: string,
  txnId: string,
  content: EventContent,
  stickyDurationMs: number,
  delay: DelayOptions = {},
): Promise<StickySendResponse> {
  return http.request<StickySendResponse>({
    method: "PUT",
    path: sendPath(roomId, eventType, txnId),
    query: {
      [STICKY_DURATION_QUERY.unstable]: stickyDurationMs,
      [DELAYED_EVENTS_DELAY.unstable]: delay.delayMs,
      [DELAYED_EVENTS_PARENT_DELAY_ID.unstable]: delay.parentDelayId,
    },
    body: content,
  });
}
