/**
 * Send-to-device messaging (api/client-server/to_device.yaml): one call that
 * delivers messages of one event type to many devices, idempotent by its
 * transaction id.
 */
import type { HttpApi } from "../http/types";
import { encodePath } from "../http/types";
import type { ToDeviceMessages } from "./types/to-device";

/**
 * PUT /sendToDevice/{eventType}/{txnId}: sends `messages` (user id to device
 * id, or "*", to content). Retrying with the same txnId is safe.
 */
export function sendToDevice(
  http: HttpApi,
  eventType: string,
  txnId: string,
  messages: ToDeviceMessages,
): Promise<Record<string, never>> {
  return http.request<Record<string, never>>({
    method: "PUT",
    path: encodePath`/sendToDevice/${eventType}/${txnId}`,
    body: { messages },
  });
}
