/** org.matrix.msc3869.read_relations: relations of an event, filtered by capability. */
import type { ActionHandler } from "../host/ActionContext";
import { callDriver } from "../host/ActionContext";
import { SHARED_MESSAGES, WidgetActionError } from "../util/errors";
import { getString, isRecord, own } from "../util/narrow";
import { readLimit } from "./limit";
import { noTimelineAccess } from "./sendEvent";
import type { ReadRelationsRequestData, ReadRelationsResponseData } from "../interfaces/ReadRelationsAction";

/** Error texts of read_relations (SPEC §5, §8). */
const READ_RELATIONS_ERRORS = {
  missingEventId: "Invalid request - missing event ID",
  limitOutOfRange: SHARED_MESSAGES.limitOutOfRange,
  failed: "Unexpected error while reading relations",
} as const;

/** Handles fromWidget read_relations. */
export const readRelations: ActionHandler<ReadRelationsResponseData> = async (ctx, request) => {
  const data = request.data;
  const eventId = getString(data, "event_id");
  if (!eventId) throw new WidgetActionError(READ_RELATIONS_ERRORS.missingEventId);
  const limit = readLimit(data, "allowed");
  const roomId = getString(data, "room_id");
  if (roomId !== undefined && !ctx.capabilities.canUseRoomTimeline(roomId))
    throw new WidgetActionError(noTimelineAccess(roomId));
  const dir = own(data, "direction");
  const req: ReadRelationsRequestData = { event_id: eventId };
  if (roomId !== undefined) req.room_id = roomId;
  if (limit !== undefined) req.limit = limit;
  if (dir === "f" || dir === "b") req.direction = dir;
  for (const key of ["rel_type", "event_type", "from", "to"] as const) {
    const value = getString(data, key);
    if (value !== undefined) req[key] = value;
  }
  const result = await callDriver(ctx, READ_RELATIONS_ERRORS.failed, () =>
    ctx.driver.readEventRelations(
      req.event_id,
      req.room_id,
      req.rel_type,
      req.event_type,
      req.from,
      req.to,
      req.limit,
      req.direction,
    ),
  );
  const chunk = (Array.isArray(result.chunk) ? result.chunk : []).filter((e) => {
    if (!isRecord(e) || typeof e.type !== "string") return false;
    if (typeof e.state_key === "string")
      return ctx.capabilities.canStateEvent("receive", e.type, e.state_key);
    return ctx.capabilities.canRoomEvent(
      "receive",
      e.type,
      isRecord(e.content) ? e.content["msgtype"] : undefined,
    );
  });
  return { chunk, prev_batch: result.prevBatch, next_batch: result.nextBatch };
};
