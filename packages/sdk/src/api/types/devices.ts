/**
 * Wire types of device management (device_management.yaml,
 * definitions/client_device.yaml).
 */

/** One device of the user. */
export interface Device {
  device_id: string;
  display_name?: string;
  last_seen_ip?: string;
  last_seen_ts?: number;
}

/** GET /devices */
export interface DevicesResponse {
  devices?: Device[];
}

/** PUT /devices/{deviceId} body. */
export interface UpdateDeviceRequest {
  display_name?: string;
}
