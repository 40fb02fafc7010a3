/** send_to_device: a widget sends to-device messages. */
import type { ActionHandler } from "../host/ActionContext";
import { callDriver } from "../host/ActionContext";
import { WidgetActionError } from "../util/errors";
import { getString, isRecord, own } from "../util/narrow";

/** Error texts of send_to_device (SPEC §5, §6). */
export const SEND_TO_DEVICE_ERRORS = {
  missingType: "Invalid request - missing event type",
  missingContents: "Invalid request - missing event contents",
  missingEncryption: "Invalid request - missing encryption flag",
  notAllowed: "Cannot send to-device events of this type",
  failed: "Error sending event",
} as const;

type Messages = Record<string, Record<string, Record<string, unknown>>>;

function parseMessages(value: unknown): Messages | null {
  if (!isRecord(value)) return null;
  const out: Messages = Object.create(null) as Messages;
  for (const userId of Object.keys(value)) {
    const devices = own(value, userId);
    if (!isRecord(devices)) return null;
    const perDevice: Record<string, Record<string, unknown>> = Object.create(null) as Record<
      string,
      Record<string, unknown>
    >;
    for (const deviceId of Object.keys(devices)) {
      const content = own(devices, deviceId);
      if (!isRecord(content)) return null;
      perDevice[deviceId] = { ...content };
    }
    out[userId] = perDevice;
  }
  return out;
}

/** Handles fromWidget send_to_device. */
export const sendToDevice: ActionHandler = async (ctx, request) => {
  const type = getString(request.data, "type");
  if (!type) throw new WidgetActionError(SEND_TO_DEVICE_ERRORS.missingType);
  const messages = parseMessages(own(request.data, "messages"));
  if (!messages) throw new WidgetActionError(SEND_TO_DEVICE_ERRORS.missingContents);
  const encrypted = own(request.data, "encrypted");
  if (typeof encrypted !== "boolean") throw new WidgetActionError(SEND_TO_DEVICE_ERRORS.missingEncryption);
  if (!ctx.capabilities.canToDevice("send", type))
    throw new WidgetActionError(SEND_TO_DEVICE_ERRORS.notAllowed);
  await callDriver(ctx, SEND_TO_DEVICE_ERRORS.failed, () =>
    ctx.driver.sendToDevice(type, encrypted, messages),
  );
  return {};
};
