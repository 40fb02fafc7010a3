/**
 * org.matrix.msc2876.read_events: read room or state events from the viewed
 * room, listed rooms, or any room ("*"). Every listed room needs a timeline
 * capability; results are filtered again by capability, so a driver that
 * returns too much never leaks events the widget may not read.
 */
import type { ActionContext, ActionHandler } from "../host/ActionContext";
import type { WidgetApiRequest } from "../interfaces/WidgetApiRequest";
import { callDriver } from "../host/ActionContext";
import type { ReadEventsRequestData, ReadEventsResponseData } from "../interfaces/ReadEventsAction";
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

/** Validates read_events data in the reference order; `rooms` are the rooms to read, checked against the capabilities. */
function parseReadEvents(
  ctx: ActionContext,
  data: WidgetApiRequest["data"],
): { req: ReadEventsRequestData; rooms: string[] } {
  const type = getString(data, "type");
  if (!type) throw new WidgetActionError(READ_EVENTS_ERRORS.missingType);
  const req: ReadEventsRequestData = { type };
  const limit = readLimit(data, "out_of_range");
  if (limit !== undefined) req.limit = Math.floor(limit);
  const rooms = roomsToRead(ctx, own(data, "room_ids"));
  const since = getString(data, "since");
  if (since !== undefined) req.since = since;
  const stateKey = own(data, "state_key");
  if (stateKey !== undefined) {
    if (stateKey !== true && typeof stateKey !== "string")
      throw new WidgetActionError(READ_EVENTS_ERRORS.badStateKey);
    req.state_key = stateKey;
  }
  const msgtype = getString(data, "msgtype");
  if (msgtype !== undefined) req.msgtype = msgtype;
  return { req, rooms };
}

/** Handles fromWidget read_events. */
export const readEvents: ActionHandler<ReadEventsResponseData> = async (ctx, request) => {
  const { req, rooms } = parseReadEvents(ctx, request.data);
  const { type, since } = req;
  const limit = req.limit ?? 0;
  const rawStateKey = req.state_key;

  let events: RoomEvent[];
  if (rawStateKey !== undefined) {
    const stateKey = typeof rawStateKey === "string" ? rawStateKey : undefined;
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
    const msgtype = req.msgtype;
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
