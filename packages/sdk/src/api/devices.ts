/**
 * The user's devices: list, read, rename, delete one or many. Deleting needs
 * interactive auth: pass the `auth` dictionary through; the 401 answer
 * reaches the caller as a MatrixError carrying the AuthResponse.
 */
import type { HttpApi } from "../http/types";
import { encodePath } from "../http/types";
import type { AuthDict } from "./types/auth";
import type { Device, DevicesResponse, UpdateDeviceRequest } from "./types/devices";

/** GET /devices */
export function getDevices(http: HttpApi): Promise<DevicesResponse> {
  return http.request<DevicesResponse>({ method: "GET", path: "/devices" });
}

/** GET /devices/{deviceId} */
export function getDevice(http: HttpApi, deviceId: string): Promise<Device> {
  return http.request<Device>({ method: "GET", path: encodePath`/devices/${deviceId}` });
}

/** PUT /devices/{deviceId}: display_name. */
export async function updateDevice(
  http: HttpApi,
  deviceId: string,
  body: UpdateDeviceRequest,
): Promise<void> {
  await http.request<unknown>({ method: "PUT", path: encodePath`/devices/${deviceId}`, body });
}

/** DELETE /devices/{deviceId} (interactive auth). */
export async function deleteDevice(http: HttpApi, deviceId: string, auth?: AuthDict): Promise<void> {
  await http.request<unknown>({
    method: "DELETE",
    path: encodePath`/devices/${deviceId}`,
    body: auth === undefined ? {} : { auth },
  });
}

/** POST /delete_devices (interactive auth). */
export async function deleteDevices(
  http: HttpApi,
  deviceIds: readonly string[],
  auth?: AuthDict,
): Promise<void> {
  const body: { devices: readonly string[]; auth?: AuthDict } = { devices: deviceIds };
  if (auth !== undefined) body.auth = auth;
  await http.request<unknown>({ method: "POST", path: "/delete_devices", body });
}
