/**
 * Which device sent each Olm-decrypted to-device event. The engine's output
 * for a decrypted event is the Olm plaintext, whose `keys.ed25519` is the
 * sending device's signing key: the engine checked it against the device it
 * holds for the Olm session's curve25519 key. The events handed to the
 * engine were rebuilt by the sync validator (type, sender, content only), so
 * a top-level `keys` in the output can only come from decryption, never from
 * a server. The device id is then looked up in the engine's device store by
 * that key; a sender-chosen field (`member.claimed_device_id`, the MSC4147
 * `device_keys`) is never trusted for it. Consumers that bind data to a
 * device (MatrixRTC media keys) read `senderDevice`.
 */
import type { Device, OlmMachine } from "@matrix-org/matrix-sdk-crypto-wasm";
import type { ToDeviceEvent } from "../api/types/events";
import { parseToDeviceItem } from "./device-lists";
import { userIdOrUndefined } from "./ids";
import type { Engine } from "./load";

/** What the lookup needs of the crypto machine. */
export interface OlmSenderDeps {
  engine: Pick<Engine, "UserId">;
  machine: Pick<OlmMachine, "getUserDevices">;
}

function signingKeyOf(item: unknown): string | undefined {
  if (typeof item !== "object" || item === null) return undefined;
  const keys = (item as Record<string, unknown>)["keys"];
  if (typeof keys !== "object" || keys === null) return undefined;
  const ed = (keys as Record<string, unknown>)["ed25519"];
  return typeof ed === "string" ? ed : undefined;
}

/** The id of `userId`'s device whose ed25519 key is `signingKey`, from the engine's store. */
async function deviceBySigningKey(
  deps: OlmSenderDeps,
  userId: string,
  signingKey: string,
): Promise<string | undefined> {
  const id = userIdOrUndefined(deps.engine, userId);
  if (!id) return undefined;
  const devices = await deps.machine.getUserDevices(id, null);
  try {
    let found: string | undefined;
    for (const device of devices.devices() as Device[]) {
      try {
        if (found === undefined && device.ed25519Key?.toBase64() === signingKey)
          found = device.deviceId.toString();
      } finally {
        device.free();
      }
    }
    return found;
  } finally {
    devices.free();
  }
}

/**
 * Parses the engine's to-device output and marks each Olm-decrypted event
 * with `senderDevice`, the device the engine authenticated; events in the
 * clear, and decrypted ones whose device the store does not hold, have none.
 */
export async function parseDecryptedToDevice(deps: OlmSenderDeps, json: string): Promise<ToDeviceEvent[]> {
  const raw: unknown = JSON.parse(json);
  const cache = new Map<string, string | undefined>();
  const out: ToDeviceEvent[] = [];
  for (const item of Array.isArray(raw) ? (raw as unknown[]) : []) {
    const event = parseToDeviceItem(item);
    if (!event) continue;
    const signingKey = signingKeyOf(item);
    if (signingKey === undefined) {
      out.push(event);
      continue;
    }
    const cacheKey = `${event.sender}\u0000${signingKey}`;
    if (!cache.has(cacheKey)) cache.set(cacheKey, await deviceBySigningKey(deps, event.sender, signingKey));
    const senderDevice = cache.get(cacheKey);
    out.push(senderDevice !== undefined ? { ...event, senderDevice } : event);
  }
  return out;
}
