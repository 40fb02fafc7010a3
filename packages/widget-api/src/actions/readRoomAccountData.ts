/** com.beeper.read_room_account_data: read room account data of one type. */
import type { ActionHandler } from "../host/ActionContext";
import { callDriver } from "../host/ActionContext";
import { SHARED_MESSAGES, WidgetActionError } from "../util/errors";
import { getString } from "../util/narrow";
import type {
  ReadRoomAccountDataRequestData,
  ReadRoomAccountDataResponseData,
} from "../interfaces/MiscActions";

/** Error texts of read_room_account_data (SPEC §6). */
const ROOM_ACCOUNT_DATA_ERRORS = {
  missingType: SHARED_MESSAGES.missingType,
  notAllowed: "Cannot read room account data of this type",
  failed: "Unexpected error while reading room account data",
} as const;

/** Handles fromWidget read_room_account_data. */
export const readRoomAccountData: ActionHandler<ReadRoomAccountDataResponseData> = async (ctx, request) => {
  const type = getString(request.data, "type");
  if (!type) throw new WidgetActionError(ROOM_ACCOUNT_DATA_ERRORS.missingType);
  const req: ReadRoomAccountDataRequestData = { type };
  if (!ctx.capabilities.canReadRoomAccountData(req.type))
    throw new WidgetActionError(ROOM_ACCOUNT_DATA_ERRORS.notAllowed);
  const events = await callDriver(ctx, ROOM_ACCOUNT_DATA_ERRORS.failed, () =>
    ctx.driver.readRoomAccountData(req.type),
  );
  return { events: events.filter((e) => e.type === req.type) };
};
