/** open_modal: a widget asks the client to open a modal widget. */
import { parseOpenModal } from "../definition/modal";
import type { ActionHandler } from "../host/ActionContext";
import { callDriver } from "../host/ActionContext";
import { WidgetActionError } from "../util/errors";

/** Error text when the driver fails to open the modal. */
const OPEN_MODAL_FAILED = "Error opening modal widget";

/** Handles fromWidget open_modal. */
export const openModal: ActionHandler = async (ctx, request) => {
  const parsed = parseOpenModal(request.data);
  if ("error" in parsed) throw new WidgetActionError(parsed.error);
  await callDriver(ctx, OPEN_MODAL_FAILED, () => ctx.driver.openModal(parsed));
  return {};
};
