/** set_button_enabled: a modal widget enables or disables one of its buttons. */
import type { ActionHandler } from "../host/ActionContext";
import { callDriver } from "../host/ActionContext";
import { MODAL_CLOSE_BUTTON_ID } from "../interfaces/ModalActions";
import { WidgetActionError } from "../util/errors";
import { getString, own } from "../util/narrow";
import { MODAL_ONLY } from "./closeModal";
import type { SetModalButtonEnabledRequestData } from "../interfaces/ModalActions";

/** Error texts of set_button_enabled (SPEC §5). */
const MODAL_BUTTON_ERRORS = {
  closeButton: "The close button cannot be disabled",
  invalid: "Invalid request - missing button or enabled flag",
  failed: "Error setting modal button state",
} as const;

/** Handles fromWidget set_button_enabled. */
export const setModalButtonEnabled: ActionHandler = async (ctx, request) => {
  if (ctx.widget.kind !== "modal") throw new WidgetActionError(MODAL_ONLY);
  const button = getString(request.data, "button");
  const enabled = own(request.data, "enabled");
  if (!button || typeof enabled !== "boolean") throw new WidgetActionError(MODAL_BUTTON_ERRORS.invalid);
  const req: SetModalButtonEnabledRequestData = { button, enabled };
  if (req.button === MODAL_CLOSE_BUTTON_ID) throw new WidgetActionError(MODAL_BUTTON_ERRORS.closeButton);
  await callDriver(ctx, MODAL_BUTTON_ERRORS.failed, () =>
    ctx.driver.setModalButtonEnabled(req.button, req.enabled),
  );
  return {};
};
