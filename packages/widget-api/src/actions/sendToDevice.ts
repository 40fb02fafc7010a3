/**
 * send_to_device: a widget sends to-device messages. Every key of `messages`
 * must be a user ID and every key below it a device ID or "*", checked
 * before the driver sees them; the maps handed on have no prototype.
 */
import type { ActionHandler } from "../host/ActionContext";
import { callDriver } from "../host/ActionContext";
import { SHARED_MESSAGES, WidgetActionError } from "../util/errors";
import { getString, isRecord, own } from "../util/narrow";
import type { SendToDeviceRequestData } from "../interfaces/SendToDeviceAction";

/** Error texts of send_to_device (SPEC §5, §6). */
const SEND_TO_DEVICE_ERRORS = {
  missingType: SHARED_MESSAGES.missingType,
  missingContents: "Invalid request - missing event contents",
  missingEncryption: "Invalid request - missing encryption flag",
  badUserId: "Invalid request - messages must be keyed by user ID",
  badDeviceId: "Invalid request - devices must be keyed by device ID or *",
  notAllowed: "Cannot send to-device events of this type",
  failed: SHARED_MESSAGES.sendFailed,
} as const;

type Messages = Record<string, Record<string, Record<string, unknown>>>;

/**
 * A user ID: "@", a localpart of printable non-space characters without ":",
 * ":", a server name without spaces; at most 255 characters (the spec's limit).
 */
const USER_ID = /^@[\x21-\x39\x3b-\x7e]+:[\x21-\x7e]+$/;
/** A device ID: 1-255 printable ASCII characters without spaces, or "*" for all devices. */
const DEVICE_ID = /^[\x21-\x7e]{1,255}$/;

/** Names an object inherits: never a device ID, whatever the grammar allows. */
function isPrototypeName(key: string): boolean {
  return key in Object.prototype;
}

function parseMessages(value: unknown): Messages {
  if (!isRecord(value)) throw new WidgetActionError(SEND_TO_DEVICE_ERRORS.missingContents);
  const out: Messages = Object.create(null) as Messages;
  for (const userId of Object.keys(value)) {
    if (userId.length > 255 || !USER_ID.test(userId))
      throw new WidgetActionError(SEND_TO_DEVICE_ERRORS.badUserId);
    const devices = own(value, userId);
    if (!isRecord(devices)) throw new WidgetActionError(SEND_TO_DEVICE_ERRORS.missingContents);
    const perDevice = Object.create(null) as Record<string, Record<string, unknown>>;
    for (const deviceId of Object.keys(devices)) {
      if (!DEVICE_ID.test(deviceId) || isPrototypeName(deviceId))
        throw new WidgetActionError(SEND_TO_DEVICE_ERRORS.badDeviceId);
      const content = own(devices, deviceId);
      if (!isRecord(content)) throw new WidgetActionError(SEND_TO_DEVICE_ERRORS.missingContents);
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
  const encrypted = own(request.data, "encrypted");
  if (typeof encrypted !== "boolean") throw new WidgetActionError(SEND_TO_DEVICE_ERRORS.missingEncryption);
  const req: SendToDeviceRequestData = { type, encrypted, messages };
  if (!ctx.capabilities.canToDevice("send", req.type))
    throw new WidgetActionError(SEND_TO_DEVICE_ERRORS.notAllowed);
  await callDriver(ctx, SEND_TO_DEVICE_ERRORS.failed, () =>
    ctx.driver.sendToDevice(req.type, req.encrypted, req.messages),
  );
  return {};
};
