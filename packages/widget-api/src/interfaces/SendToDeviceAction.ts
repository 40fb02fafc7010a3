/** send_to_device (both directions). */

/** fromWidget send_to_device request data: user id -> device id -> content. */
export interface SendToDeviceRequestData {
  type: string;
  encrypted: boolean;
  messages: Record<string, Record<string, Record<string, unknown>>>;
}
