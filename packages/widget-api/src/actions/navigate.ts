/** org.matrix.msc2931.navigate: open a matrix.to link in the client. */
import { MatrixCapabilities } from "../capabilities/MatrixCapabilities";
import { MATRIX_TO_PREFIX } from "../interfaces/NavigateAction";
import type { NavigateRequestData } from "../interfaces/NavigateAction";
import type { ActionHandler } from "../host/ActionContext";
import { callDriver, requireCapability } from "../host/ActionContext";
import { SHARED_MESSAGES, WidgetActionError } from "../util/errors";
import { getString } from "../util/narrow";

/** Error texts of navigate (SPEC §5, §8). */
const NAVIGATE_ERRORS = {
  invalidUri: SHARED_MESSAGES.invalidUri,
  failed: "Error handling navigation",
} as const;

/** Handles fromWidget navigate. */
export const navigate: ActionHandler = async (ctx, request) => {
  requireCapability(ctx, MatrixCapabilities.MSC2931Navigate);
  const uri = getString(request.data, "uri");
  if (uri === undefined || !uri.startsWith(MATRIX_TO_PREFIX))
    throw new WidgetActionError(NAVIGATE_ERRORS.invalidUri);
  const req: NavigateRequestData = { uri };
  await callDriver(ctx, NAVIGATE_ERRORS.failed, () => ctx.driver.navigate(req.uri));
  return {};
};
