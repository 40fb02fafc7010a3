/**
 * org.matrix.msc2974.request_capabilities: the widget asks for more
 * capabilities after the first negotiation. Acknowledged at once; the
 * approval arrives later as notify_capabilities.
 */
import type { ActionHandler } from "../host/ActionContext";
import { WidgetActionError } from "../util/errors";
import { isStringArray, own } from "../util/narrow";

/** Error text for a malformed capability list. */
export const INVALID_CAPABILITIES = "Invalid request - capabilities must be a list of strings";

/** Handles fromWidget request_capabilities. */
export const renegotiateCapabilities: ActionHandler = (ctx, request) => {
  const requested = own(request.data, "capabilities") ?? [];
  if (!isStringArray(requested)) return Promise.reject(new WidgetActionError(INVALID_CAPABILITIES));
  // Reply first, then negotiate: the widget learns the outcome from notify_capabilities.
  queueMicrotask(() => ctx.renegotiate(requested));
  return Promise.resolve({});
};
