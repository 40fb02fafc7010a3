/**
 * Encrypted to-device messages (Olm): encrypts one content per target device
 * and sends them as m.room.encrypted in one PUT /sendToDevice. Used by call
 * key transports and widgets. Blocked devices and devices we have no keys
 * for are skipped and reported. Receiving needs nothing here: the sync
 * decrypt hook hands the engine the to-device events and keeps its
 * decrypted output.
 */
import type { Device } from "@matrix-org/matrix-sdk-crypto-wasm";
import { sendToDevice } from "../api/to-device";
import type { ToDeviceMessages } from "../api/types/to-device";
import type { HttpApi } from "../http/types";
import { userIdOrUndefined } from "./ids";
import type { EncryptorDeps } from "./RoomEncryptor";
import { ensureOlmSessions } from "./RoomEncryptor";

/** One target device of an encrypted to-device message. */
export interface ToDeviceTarget {
  userId: string;
  deviceId: string;
}

/** The result of an encrypted to-device send. */
export interface ToDeviceResult {
  /** Devices that got the message. */
  sent: ToDeviceTarget[];
  /** Devices left out: unknown, blocked, or without an Olm session. */
  skipped: ToDeviceTarget[];
}

/** How long a stale device list may delay a send (engine key query wait). */
const DEVICE_WAIT_SECS = 5;

/**
 * Encrypts `content` of `eventType` for every target device; the result is
 * the `messages` body of an m.room.encrypted to-device send.
 */
export async function encryptToDevice(
  deps: EncryptorDeps,
  eventType: string,
  targets: readonly ToDeviceTarget[],
  content: Record<string, unknown>,
): Promise<{ messages: ToDeviceMessages; result: ToDeviceResult }> {
  const { engine, machine } = deps;
  const users = [...new Set(targets.map((t) => t.userId))];
  await ensureOlmSessions(deps, users);
  const messages: ToDeviceMessages = Object.create(null) as ToDeviceMessages;
  const result: ToDeviceResult = { sent: [], skipped: [] };
  for (const target of targets) {
    const userId = userIdOrUndefined(engine, target.userId);
    const device: Device | undefined = userId
      ? await machine.getDevice(userId, new engine.DeviceId(target.deviceId), DEVICE_WAIT_SECS)
      : undefined;
    if (!device || device.isBlacklisted()) {
      device?.free();
      result.skipped.push(target);
      continue;
    }
    try {
      const encrypted: unknown = JSON.parse(await device.encryptToDeviceEvent(eventType, content));
      const perUser = (messages[target.userId] ??= Object.create(null) as Record<
        string,
        Record<string, unknown>
      >);
      perUser[target.deviceId] = encrypted as Record<string, unknown>;
      result.sent.push(target);
    } catch {
      // No Olm session (the device has no one-time keys left): the others still get it.
      result.skipped.push(target);
    } finally {
      device.free();
    }
  }
  return { messages, result };
}

/** Encrypts and sends in one PUT /sendToDevice/m.room.encrypted/{txnId}. */
export async function sendEncryptedToDevice(
  deps: EncryptorDeps,
  http: HttpApi,
  txnId: string,
  eventType: string,
  targets: readonly ToDeviceTarget[],
  content: Record<string, unknown>,
): Promise<ToDeviceResult> {
  const { messages, result } = await encryptToDevice(deps, eventType, targets, content);
  if (result.sent.length > 0) await sendToDevice(http, "m.room.encrypted", txnId, messages);
  return result;
}
