/**
 * MSC4140 delayed events, on their unstable names: a send or state PUT with
 * `org.matrix.msc4140.delay` (or `.parent_delay_id`) schedules the event
 * instead of sending it, and /unstable/org.matrix.msc4140/delayed_events
 * lists them and cancels, restarts or sends one. Servers advertise support
 * in /versions' unstable_features; callers check with
 * assertDelayedEventsSupported first, as there is no stable fallback.
 */
import type { HttpApi, QueryParams } from "../http/types";
import { encodePath } from "../http/types";
import { ApiError, DELAYED_EVENTS_UNSUPPORTED } from "./errors";
import { sendPath, statePath } from "./send";
import type { EventContent } from "./types/events";
import type { DelayIdResponse, DelayOptions, DelayedEventAction, DelayedEventsResponse } from "./types/send";
import {
  DELAYED_EVENTS_DELAY,
  DELAYED_EVENTS_FEATURE,
  DELAYED_EVENTS_PARENT_DELAY_ID,
  DELAYED_EVENTS_PREFIX,
} from "./unstable";

/** The message thrown when the server does not advertise MSC4140 (defined in ./errors). */
export { DELAYED_EVENTS_UNSUPPORTED } from "./errors";

/**
 * Throws ApiError 'Server does not support the delayed events API' unless
 * the /versions answer lists org.matrix.msc4140 as an enabled unstable feature.
 */
export function assertDelayedEventsSupported(versions: {
  unstable_features?: Readonly<Record<string, boolean>>;
}): void {
  const features = versions.unstable_features;
  const supported =
    features !== undefined &&
    Object.prototype.hasOwnProperty.call(features, DELAYED_EVENTS_FEATURE.unstable) &&
    features[DELAYED_EVENTS_FEATURE.unstable] === true;
  if (!supported) throw new ApiError("UNSUPPORTED_BY_SERVER", DELAYED_EVENTS_UNSUPPORTED);
}

function delayQuery(delay: DelayOptions): QueryParams {
  return {
    [DELAYED_EVENTS_DELAY.unstable]: delay.delayMs,
    [DELAYED_EVENTS_PARENT_DELAY_ID.unstable]: delay.parentDelayId,
  };
}

/** PUT /rooms/{roomId}/send/{eventType}/{txnId}?org.matrix.msc4140.delay=…: schedule a timeline event. */
export function sendDelayedEvent(
  http: HttpApi,
  roomId: string,
  eventType: string,
  txnId: string,
  content: EventContent,
  delay: DelayOptions,
): Promise<DelayIdResponse> {
  return http.request<DelayIdResponse>({
    method: "PUT",
    path: sendPath(roomId, eventType, txnId),
    query: delayQuery(delay),
    body: content,
  });
}

/** PUT /rooms/{roomId}/state/{eventType}/{stateKey}?org.matrix.msc4140.delay=…: schedule a state event. */
export function sendDelayedStateEvent(
  http: HttpApi,
  roomId: string,
  eventType: string,
  content: EventContent,
  delay: DelayOptions,
  stateKey = "",
): Promise<DelayIdResponse> {
  return http.request<DelayIdResponse>({
    method: "PUT",
    path: statePath(roomId, eventType, stateKey),
    query: delayQuery(delay),
    body: content,
  });
}

/** GET /unstable/org.matrix.msc4140/delayed_events: the user's scheduled delayed events. */
export function getDelayedEvents(http: HttpApi, from?: string): Promise<DelayedEventsResponse> {
  return http.request<DelayedEventsResponse>({
    method: "GET",
    prefix: DELAYED_EVENTS_PREFIX.unstable,
    path: "/delayed_events",
    ...(from !== undefined ? { query: { from } } : {}),
  });
}

/** POST /unstable/org.matrix.msc4140/delayed_events/{delayId}: cancel, restart or send a delayed event. */
export function updateDelayedEvent(
  http: HttpApi,
  delayId: string,
  action: DelayedEventAction,
): Promise<Record<string, never>> {
  return http.request<Record<string, never>>({
    method: "POST",
    prefix: DELAYED_EVENTS_PREFIX.unstable,
    path: encodePath`/delayed_events/${delayId}`,
    body: { action },
  });
}
