/** set_always_on_screen: keep the widget visible when the user leaves its room. */
import { MatrixCapabilities } from "../capabilities/MatrixCapabilities";
import type { ActionHandler } from "../host/ActionContext";
import { callDriver, requireCapability } from "../host/ActionContext";
import { WidgetActionError } from "../util/errors";
import { own } from "../util/narrow";
import type { AlwaysOnScreenRequestData, AlwaysOnScreenResponseData } from "../interfaces/MiscActions";

/** Error texts of set_always_on_screen. */
const ALWAYS_ON_SCREEN_ERRORS = {
  missingValue: "Invalid request - missing value",
  failed: "Error setting always on screen",
} as const;

/** Handles fromWidget set_always_on_screen. */
export const setAlwaysOnScreen: ActionHandler<AlwaysOnScreenResponseData> = async (ctx, request) => {
  requireCapability(ctx, MatrixCapabilities.AlwaysOnScreen);
  const value = own(request.data, "value");
  if (typeof value !== "boolean") throw new WidgetActionError(ALWAYS_ON_SCREEN_ERRORS.missingValue);
  const req: AlwaysOnScreenRequestData = { value };
  const success = await callDriver(ctx, ALWAYS_ON_SCREEN_ERRORS.failed, () =>
    ctx.driver.setAlwaysOnScreen(req.value),
  );
  return { success: success === true };
};
