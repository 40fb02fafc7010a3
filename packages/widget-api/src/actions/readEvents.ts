/**
 * org.matrix.msc2876.read_events: read room or state events from the viewed
 * room, listed rooms, or any room ("*"). Every listed room needs a timeline
 * capability; results are filtered again by capability, so a driver that
 * returns too much never leaks events the widget may not read.
 */
import type { ActionContext, ActionHandler } from "../host/ActionContext";
import { callDriver } from "../host/ActionContext";
import type { RoomEvent } from "../interfaces/RoomEvent";
import { ANY_ROOM } from "../capabilities/MatrixCapabilities";
import { SHARED_MESSAGES, WidgetActionError } from "../util/errors";
import { getString, isRecord, isStringArray, own } from "../util/narrow";
import { readLimit } from "./limit";
import { noTimelineAccess } from "./sendEvent";

/** Error texts of read_events (SPEC §5, §6). */
const READ_EVENTS_ERRORS = {
  missingType: SHARED_MESSAGES.missingType,
  limitOutOfRange: SHARED_MESSAGES.limitOutOfRange,
  badRoomIds: 'Invalid request - room_ids must be a list of room IDs or "*"',
  badStateKey: "Invalid request - invalid state_key",
  stateNotAllowed: "Cannot read state events of this type",
  roomNotAllowed: "Cannot read room events of this type",
  failed: "Unexpected error while reading events",
} as const;

function roomsToRead(ctx: ActionContext, roomIds: unknown): string[] {
  if (roomIds === undefined) return ctx.viewedRoomId === null ? [] : [ctx.viewedRoomId];
  if (roomIds === ANY_ROOM)
    return ctx.driver.getKnownRooms().filter((r) => ctx.capabilities.canUseRoomTimeline(r));
  if (!isStringArray(roomIds)) throw new WidgetActionError(READ_EVENTS_ERRORS.badRoomIds);
  for (const roomId of roomIds) {
    if (!ctx.capabilities.canUseRoomTimeline(roomId)) throw new WidgetActionError(noTimelineAccess(roomId));
  }
  return [...new Set(roomIds)];
}

/** Handles fromWidget read_events. */
export const readEvents: ActionHandler = async (ctx, request) => {
  const data = request.data;
  const type = getString(data, "type");
  if (!type) throw new WidgetActionError(READ_EVENTS_ERRORS.missingType);
  const rawLimit = readLimit(data, "out_of_range");
  const limit = rawLimit === undefined ? 0 : Math.floor(rawLimit);
  const rooms = roomsToRead(ctx, own(data, "room_ids"));
  const since = getString(data, "since");
  const rawStateKey = own(data, "state_key");

  let events: RoomEvent[];
  if (rawStateKey !== undefined) {
    if (rawStateKey !== true && typeof rawStateKey !== "string")
      throw new WidgetActionError(READ_EVENTS_ERRORS.badStateKey);
    const stateKey = rawStateKey === true ? undefined : rawStateKey;
    if (!ctx.capabilities.canStateEvent("receive", type, stateKey ?? null)) {
      throw new WidgetActionError(READ_EVENTS_ERRORS.stateNotAllowed);
    }
    // A widget that receives update_state already has current state: it reads state history from the timeline.
    const fromTimeline = await ctx.supportsUpdateState();
    events = await callDriver(ctx, READ_EVENTS_ERRORS.failed, async () =>
      (
        await Promise.all(
          rooms.map((r) =>
            fromTimeline
              ? ctx.driver.readRoomTimeline(r, type, undefined, stateKey, limit, since)
              : ctx.driver.readRoomState(r, type, stateKey),
          ),
        )
      ).flat(),
    );
    events = events.filter(
      (e) =>
        isRecord(e) &&
        e.type === type &&
        typeof e.state_key === "string" &&
        ctx.capabilities.canStateEvent("receive", e.type, e.state_key),
    );
  } else {
    const msgtype = getString(data, "msgtype");
    if (!ctx.capabilities.canRoomEvent("receive", type, msgtype))
      throw new WidgetActionError(READ_EVENTS_ERRORS.roomNotAllowed);
    events = await callDriver(ctx, READ_EVENTS_ERRORS.failed, async () =>
      (
        await Promise.all(
          rooms.map((r) => ctx.driver.readRoomTimeline(r, type, msgtype, undefined, limit, since)),
        )
      ).flat(),
    );
    events = events.filter(
      (e) =>
        isRecord(e) &&
        e.type === type &&
        ctx.capabilities.canRoomEvent(
          "receive",
          e.type,
          isRecord(e.content) ? e.content["msgtype"] : undefined,
        ),
    );
  }
  return { events: events.filter((e) => rooms.includes(e.room_id)) };
};
