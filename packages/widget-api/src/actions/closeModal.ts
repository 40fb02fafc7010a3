/** close_modal (fromWidget): a modal widget closes itself, returning data to its opener. */
import type { ActionHandler } from "../host/ActionContext";
import { callDriver } from "../host/ActionContext";
import { WidgetActionError } from "../util/errors";

/** Error texts of close_modal and set_button_enabled. */
export const MODAL_ONLY = "Invalid request - only modal widgets can do this";
/** Error text when the driver fails to close the modal. */
const CLOSE_MODAL_FAILED = "Error closing modal widget";

/** Handles fromWidget close_modal. */
export const closeModal: ActionHandler = async (ctx, request) => {
  if (ctx.widget.kind !== "modal") throw new WidgetActionError(MODAL_ONLY);
  await callDriver(ctx, CLOSE_MODAL_FAILED, () => ctx.driver.closeModal({ ...request.data }));
  return {};
};
