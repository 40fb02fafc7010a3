/** org.matrix.msc4157.update_delayed_event: cancel, restart or send a delayed event. */
import { MatrixCapabilities } from "../capabilities/MatrixCapabilities";
import type { ActionHandler } from "../host/ActionContext";
import { callDriver, requireCapability } from "../host/ActionContext";
import type {
  UpdateDelayedEventActionKind,
  UpdateDelayedEventRequestData,
} from "../interfaces/UpdateDelayedEventAction";
import { UpdateDelayedEventActionName } from "../interfaces/UpdateDelayedEventAction";
import { WidgetActionError } from "../util/errors";
import { getString, own } from "../util/narrow";

/** Error texts of update_delayed_event (SPEC §5, §8). */
const UPDATE_DELAYED_ERRORS = {
  missingDelayId: "Invalid request - missing delay_id",
  unsupportedAction: "Invalid request - unsupported action",
  failed: "Error updating delayed event",
} as const;

const ACTIONS = new Set<unknown>(Object.values(UpdateDelayedEventActionName));

function isUpdateAction(value: unknown): value is UpdateDelayedEventActionKind {
  return ACTIONS.has(value);
}

/** Handles fromWidget update_delayed_event. */
export const updateDelayedEvent: ActionHandler = async (ctx, request) => {
  const delayId = getString(request.data, "delay_id");
  if (!delayId) throw new WidgetActionError(UPDATE_DELAYED_ERRORS.missingDelayId);
  requireCapability(ctx, MatrixCapabilities.MSC4157UpdateDelayedEvent);
  const action = own(request.data, "action");
  if (!isUpdateAction(action)) throw new WidgetActionError(UPDATE_DELAYED_ERRORS.unsupportedAction);
  const req: UpdateDelayedEventRequestData = { delay_id: delayId, action };
  await callDriver(ctx, UPDATE_DELAYED_ERRORS.failed, () =>
    ctx.driver.updateDelayedEvent(req.delay_id, req.action),
  );
  return {};
};
