/** m.sticker: a sticker picker sends a sticker to the viewed room. */
import { MatrixCapabilities } from "../capabilities/MatrixCapabilities";
import type { ActionHandler } from "../host/ActionContext";
import { callDriver, requireCapability } from "../host/ActionContext";
import { SHARED_MESSAGES, WidgetActionError } from "../util/errors";
import { getRecord, getString } from "../util/narrow";

/** Error texts of m.sticker. */
const STICKER_ERRORS = {
  invalid: "Invalid request - missing sticker content",
  failed: SHARED_MESSAGES.sendFailed,
} as const;

/** Handles fromWidget m.sticker. */
export const sendSticker: ActionHandler = async (ctx, request) => {
  requireCapability(ctx, MatrixCapabilities.StickerSending);
  const content = getRecord(request.data, "content");
  if (!content || typeof content["url"] !== "string") throw new WidgetActionError(STICKER_ERRORS.invalid);
  const info = getRecord(content, "info");
  const sticker: Record<string, unknown> = {
    body: getString(request.data, "name") ?? "",
    url: content["url"],
    info: info ? { ...info } : {},
  };
  await callDriver(ctx, STICKER_ERRORS.failed, () => ctx.driver.sendSticker(sticker));
  return {};
};
