/**
 * Devices and trust as the product shows them: every device of a user with
 * its verification value (SPEC §3: blocked -1, unverified 0, verified 1),
 * and setting that value locally (blocking a device keeps room keys from it).
 */
import type { Device, OlmMachine } from "@matrix-org/matrix-sdk-crypto-wasm";
import type { Engine } from "./load";
import { userIdOrUndefined } from "./ids";

/** SPEC §3 device verification values. */
export const DeviceVerification = { Blocked: -1, Unverified: 0, Verified: 1 } as const;
export type DeviceVerification = (typeof DeviceVerification)[keyof typeof DeviceVerification];

/** One device of a user, as the UI lists it. */
export interface DeviceInfo {
  userId: string;
  deviceId: string;
  displayName?: string;
  verification: DeviceVerification;
  ed25519Key?: string;
  curve25519Key?: string;
}

/** The verification value of an engine device: blocked wins over verified. */
export function verificationOf(device: Pick<Device, "isBlacklisted" | "isVerified">): DeviceVerification {
  if (device.isBlacklisted()) return DeviceVerification.Blocked;
  return device.isVerified() ? DeviceVerification.Verified : DeviceVerification.Unverified;
}

function describe(device: Device): DeviceInfo {
  const displayName = device.displayName;
  const ed = device.ed25519Key?.toBase64();
  const curve = device.curve25519Key?.toBase64();
  return {
    userId: device.userId.toString(),
    deviceId: device.deviceId.toString(),
    ...(displayName !== undefined ? { displayName } : {}),
    verification: verificationOf(device),
    ...(ed !== undefined ? { ed25519Key: ed } : {}),
    ...(curve !== undefined ? { curve25519Key: curve } : {}),
  };
}

/**
 * The known devices of a user. `waitSecs` waits that long for a pending key
 * query when the user's list is stale (the outgoing processor must be running).
 */
export async function listUserDevices(
  engine: Engine,
  machine: OlmMachine,
  userId: string,
  waitSecs?: number,
): Promise<DeviceInfo[]> {
  const id = userIdOrUndefined(engine, userId);
  if (!id) return [];
  const devices = await machine.getUserDevices(id, waitSecs ?? null);
  try {
    return devices.devices().map((d) => {
      try {
        return describe(d);
      } finally {
        d.free();
      }
    });
  } finally {
    devices.free();
  }
}

/**
 * Sets a device's local trust: -1 blocks it (it gets no room keys), 1 marks
 * it verified, 0 clears both. Returns false when the device is unknown.
 */
export async function setDeviceVerification(
  engine: Engine,
  machine: OlmMachine,
  userId: string,
  deviceId: string,
  value: DeviceVerification,
): Promise<boolean> {
  const id = userIdOrUndefined(engine, userId);
  const device = id ? await machine.getDevice(id, new engine.DeviceId(deviceId)) : undefined;
  if (!device) return false;
  try {
    const T = engine.LocalTrust;
    const trust = value === -1 ? T.BlackListed : value === 1 ? T.Verified : T.Unset;
    await device.setLocalTrust(trust);
    return true;
  } finally {
    device.free();
  }
}
