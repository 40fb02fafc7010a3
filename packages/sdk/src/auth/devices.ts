/**
 * The user's devices as the account screen needs them: list, rename, and
 * delete one or many through interactive auth (the server asks the user to
 * prove who they are before a device goes).
 */
import * as api from "../api/devices";
import type { Device } from "../api/types/devices";
import type { HttpApi } from "../http/types";
import { runInteractiveAuth } from "./InteractiveAuth";
import type { UiaCallbacks } from "./InteractiveAuth";

export interface DeviceServiceOptions {
  /** The authenticated HttpApi (a TokenRefresher in an app). */
  http: HttpApi;
  /** The signed-in user, who proves m.login.password stages. */
  userId: string;
  callbacks?: UiaCallbacks;
}

export class DeviceService {
  constructor(private readonly options: DeviceServiceOptions) {}

  /** GET /devices */
  async list(): Promise<Device[]> {
    const res = await api.getDevices(this.options.http);
    return Array.isArray(res.devices) ? res.devices : [];
  }

  /** PUT /devices/{deviceId}: renames a device. */
  rename(deviceId: string, displayName: string): Promise<void> {
    return api.updateDevice(this.options.http, deviceId, { display_name: displayName });
  }

  /** DELETE /devices/{deviceId} through interactive auth. */
  delete(deviceId: string, callbacks?: UiaCallbacks): Promise<void> {
    return this.withAuth((auth) => api.deleteDevice(this.options.http, deviceId, auth), callbacks);
  }

  /** POST /delete_devices through interactive auth. */
  deleteMany(deviceIds: readonly string[], callbacks?: UiaCallbacks): Promise<void> {
    return this.withAuth((auth) => api.deleteDevices(this.options.http, deviceIds, auth), callbacks);
  }

  private withAuth(
    request: (auth: Parameters<typeof api.deleteDevice>[2]) => Promise<void>,
    callbacks?: UiaCallbacks,
  ): Promise<void> {
    return runInteractiveAuth({
      request,
      callbacks: callbacks ?? this.options.callbacks,
      identifier: { type: "m.id.user", user: this.options.userId },
    });
  }
}
