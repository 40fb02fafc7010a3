/** org.matrix.msc3869.read_relations: relations of an event, filtered by capability. */
import type { ActionHandler } from "../host/ActionContext";
import { callDriver } from "../host/ActionContext";
import { SHARED_MESSAGES, WidgetActionError } from "../util/errors";
import { getString, isRecord, own } from "../util/narrow";
import { readLimit } from "./limit";
import { noTimelineAccess } from "./sendEvent";

/** Error texts of read_relations (SPEC §5, §8). */
const READ_RELATIONS_ERRORS = {
  missingEventId: "Invalid request - missing event ID",
  limitOutOfRange: SHARED_MESSAGES.limitOutOfRange,
  failed: "Unexpected error while reading relations",
} as const;

/** Handles fromWidget read_relations. */
export const readRelations: ActionHandler = async (ctx, request) => {
  const data = request.data;
  const eventId = getString(data, "event_id");
  if (!eventId) throw new WidgetActionError(READ_RELATIONS_ERRORS.missingEventId);
  const limit = readLimit(data, "allowed");
  const roomId = getString(data, "room_id");
  if (roomId !== undefined && !ctx.capabilities.canUseRoomTimeline(roomId))
    throw new WidgetActionError(noTimelineAccess(roomId));
  const dir = own(data, "direction");
  const direction = dir === "f" || dir === "b" ? dir : undefined;
  const result = await callDriver(ctx, READ_RELATIONS_ERRORS.failed, () =>
    ctx.driver.readEventRelations(
      eventId,
      roomId,
      getString(data, "rel_type"),
      getString(data, "event_type"),
      getString(data, "from"),
      getString(data, "to"),
      limit,
      direction,
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
