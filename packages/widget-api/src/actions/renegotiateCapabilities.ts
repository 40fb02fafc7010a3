/**
 * org.matrix.msc2974.request_capabilities: the widget asks for more
 * capabilities after the first negotiation. Acknowledged at once; the
 * approval arrives later as notify_capabilities.
 */
import type { ActionHandler } from "../host/ActionContext";
import { WidgetActionError } from "../util/errors";
import { own } from "../util/narrow";
import type { RenegotiateCapabilitiesData } from "../interfaces/MiscActions";

/** Error text for a capability list that is not a list. */
const INVALID_CAPABILITIES = "Invalid request - capabilities must be a list of strings";

/** Handles fromWidget request_capabilities. Non-string entries are dropped; the rest are asked for. */
export const renegotiateCapabilities: ActionHandler = (ctx, request) => {
  const list = own(request.data, "capabilities") ?? [];
  if (!Array.isArray(list)) return Promise.reject(new WidgetActionError(INVALID_CAPABILITIES));
  const req: RenegotiateCapabilitiesData = {
    capabilities: list.filter((c): c is string => typeof c === "string"),
  };
  // Reply first, then negotiate: the widget learns the outcome from notify_capabilities.
  queueMicrotask(() => ctx.renegotiate(req.capabilities));
  return Promise.resolve({});
};
