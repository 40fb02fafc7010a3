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
import type { OlmMachine } from "@matrix-org/matrix-sdk-crypto-wasm";
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
    for (const device of devices.devices()) {
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

/** Marks one engine output item with its sender device; `cache` spans one batch. */
async function withSenderDevice(
  deps: OlmSenderDeps,
  item: unknown,
  cache: Map<string, string | undefined>,
): Promise<ToDeviceEvent | null> {
  const event = parseToDeviceItem(item);
  if (!event) return null;
  const signingKey = signingKeyOf(item);
  if (signingKey === undefined) return event;
  const cacheKey = `${event.sender}\u0000${signingKey}`;
  if (!cache.has(cacheKey)) cache.set(cacheKey, await deviceBySigningKey(deps, event.sender, signingKey));
  const senderDevice = cache.get(cacheKey);
  return senderDevice !== undefined ? { ...event, senderDevice } : event;
}

/**
 * Parses a JSON array of engine to-device output (the Olm plaintexts and
 * events in the clear) and marks each Olm-decrypted event with
 * `senderDevice`, the device the engine authenticated; events in the clear,
 * and decrypted ones whose device the store does not hold, have none.
 */
export async function parseDecryptedToDevice(deps: OlmSenderDeps, json: string): Promise<ToDeviceEvent[]> {
  const raw: unknown = JSON.parse(json);
  const cache = new Map<string, string | undefined>();
  const out: ToDeviceEvent[] = [];
  for (const item of Array.isArray(raw) ? (raw as unknown[]) : []) {
    const event = await withSenderDevice(deps, item, cache);
    if (event) out.push(event);
  }
  return out;
}

/** The engine's per-event output of `receiveSyncChanges`. */
export type ProcessedToDevice = Awaited<ReturnType<OlmMachine["receiveSyncChanges"]>>[number];

/**
 * Turns the engine's processed to-device events into ours, in order: a
 * decrypted one carries the device the engine found for its Olm session
 * (or, when the engine has none, the signing-key lookup above); events in
 * the clear and failed decryptions pass without one; malformed ones are
 * dropped. Frees every engine object.
 */
export async function parseProcessedToDevice(
  deps: OlmSenderDeps,
  processed: readonly ProcessedToDevice[],
): Promise<ToDeviceEvent[]> {
  const cache = new Map<string, string | undefined>();
  const out: ToDeviceEvent[] = [];
  for (const item of processed) {
    try {
      const raw: unknown = JSON.parse(item.rawEvent);
      let senderDevice: string | undefined;
      // Only decrypted events have encryption info (read through its getter, so no `type` import of the enum).
      if ("encryptionInfo" in item) {
        const info = item.encryptionInfo;
        const device = info.senderDevice;
        senderDevice = device?.toString();
        device?.free();
        info.free();
      }
      const event =
        senderDevice !== undefined ? parseToDeviceItem(raw) : await withSenderDevice(deps, raw, cache);
      if (event) out.push(senderDevice !== undefined ? { ...event, senderDevice } : event);
    } finally {
      item.free();
    }
  }
  return out;
}
