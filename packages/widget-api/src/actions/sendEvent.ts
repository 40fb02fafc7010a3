/**
 * send_event: a widget sends a room or state event, optionally delayed
 * (MSC4157, with parent_delay_id) or sticky (MSC4407). Checks run in the
 * reference order so widgets see the same errors on every client.
 */
import { MatrixCapabilities } from "../capabilities/MatrixCapabilities";
import type { ActionHandler } from "../host/ActionContext";
import { callDriver } from "../host/ActionContext";
import type { SendEventOptions } from "../host/WidgetDriver";
import type { SendEventResponseData } from "../interfaces/SendEventAction";
import { SHARED_MESSAGES, WidgetActionError } from "../util/errors";
import { getNumber, getString, isRecord, own } from "../util/narrow";

/** Error texts of send_event (SPEC §5, §6, §8). */
const SEND_EVENT_ERRORS = {
  missingType: SHARED_MESSAGES.missingType,
  badContent: "Invalid request - content must be an object",
  badDelay: "Invalid request - invalid delay",
  badStateKey: "Invalid request - invalid state_key",
  noDelayedCap: `Missing capability for ${MatrixCapabilities.MSC4157SendDelayedEvent}`,
  noStickyCap: `Missing capability for ${MatrixCapabilities.MSC4407SendStickyEvent}`,
  stateNotAllowed: "Cannot send state events of this type",
  stickyState: "Cannot send a state event with a sticky duration",
  roomNotAllowed: "Cannot send room events of this type",
  failed: SHARED_MESSAGES.sendFailed,
} as const;

/** Message for a room the widget has no timeline capability for. */
export function noTimelineAccess(roomId: string): string {
  return `Unable to access room timeline: ${roomId}`;
}

/** Handles fromWidget send_event. */
export const sendEvent: ActionHandler<SendEventResponseData> = async (ctx, request) => {
  const data = request.data;
  const type = getString(data, "type");
  if (!type) throw new WidgetActionError(SEND_EVENT_ERRORS.missingType);
  const rawRoomId = own(data, "room_id");
  if (rawRoomId !== undefined && typeof rawRoomId !== "string")
    throw new WidgetActionError(noTimelineAccess(JSON.stringify(rawRoomId) ?? ""));
  const roomId = rawRoomId || undefined;
  if (roomId !== undefined && !ctx.capabilities.canUseRoomTimeline(roomId)) {
    throw new WidgetActionError(noTimelineAccess(roomId));
  }
  const rawContent = own(data, "content") ?? {};
  if (!isRecord(rawContent)) throw new WidgetActionError(SEND_EVENT_ERRORS.badContent);
  const content = { ...rawContent };

  const options: SendEventOptions = {};
  if (roomId !== undefined) options.roomId = roomId;
  if (own(data, "delay") !== undefined) {
    const delay = getNumber(data, "delay");
    if (delay === undefined || delay < 0) throw new WidgetActionError(SEND_EVENT_ERRORS.badDelay);
    options.delay = delay;
  }
  const parentDelayId = getString(data, "parent_delay_id");
  if (parentDelayId !== undefined) options.parentDelayId = parentDelayId;
  if (
    (options.delay !== undefined || parentDelayId !== undefined) &&
    !ctx.capabilities.has(MatrixCapabilities.MSC4157SendDelayedEvent)
  ) {
    throw new WidgetActionError(SEND_EVENT_ERRORS.noDelayedCap);
  }
  const sticky = own(data, "sticky_duration_ms");
  if (sticky !== undefined) {
    if (!ctx.capabilities.has(MatrixCapabilities.MSC4407SendStickyEvent))
      throw new WidgetActionError(SEND_EVENT_ERRORS.noStickyCap);
    const ms = getNumber(data, "sticky_duration_ms");
    if (ms === undefined || ms < 0) throw new WidgetActionError(SEND_EVENT_ERRORS.badDelay);
    options.stickyDurationMs = ms;
  }

  let stateKey: string | null = null;
  const rawStateKey = own(data, "state_key");
  if (rawStateKey !== undefined) {
    if (typeof rawStateKey !== "string") throw new WidgetActionError(SEND_EVENT_ERRORS.badStateKey);
    if (!ctx.capabilities.canStateEvent("send", type, rawStateKey))
      throw new WidgetActionError(SEND_EVENT_ERRORS.stateNotAllowed);
    if (options.stickyDurationMs !== undefined) throw new WidgetActionError(SEND_EVENT_ERRORS.stickyState);
    stateKey = rawStateKey;
  } else if (!ctx.capabilities.canRoomEvent("send", type, content["msgtype"])) {
    throw new WidgetActionError(SEND_EVENT_ERRORS.roomNotAllowed);
  }

  const sent = await callDriver(ctx, SEND_EVENT_ERRORS.failed, () =>
    ctx.driver.sendEvent(type, content, stateKey, options),
  );
  // MSC4157: a send with a delay or a parent_delay_id (sent when its parent is, after its own delay
  // or none) is a delayed event and yields a delay_id; all others an event_id. A driver that breaks
  // this is an error.
  const delayed = options.delay !== undefined || options.parentDelayId !== undefined;
  if (!isRecord(sent) || typeof sent.roomId !== "string")
    throw new WidgetActionError(SEND_EVENT_ERRORS.failed);
  const reply: SendEventResponseData = { room_id: sent.roomId };
  if (delayed) {
    if (typeof sent.delayId !== "string") throw new WidgetActionError(SEND_EVENT_ERRORS.failed);
    reply.delay_id = sent.delayId;
  } else {
    if (typeof sent.eventId !== "string") throw new WidgetActionError(SEND_EVENT_ERRORS.failed);
    reply.event_id = sent.eventId;
  }
  return reply;
};
