/**
 * Wire types of send-to-device messaging (api/client-server/to_device.yaml).
 */

/** User id to device id (or "*" for all devices) to message content. */
export type ToDeviceMessages = Record<string, Record<string, Record<string, unknown>>>;

/** PUT /sendToDevice/{eventType}/{txnId} body. */
export interface SendToDeviceRequest {
  messages: ToDeviceMessages;
}
