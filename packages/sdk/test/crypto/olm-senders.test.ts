/**
 * The Olm sender device of decrypted to-device events: looked up by the
 * plaintext's signing key in the engine's device store, never taken from
 * what the sender claims; events in the clear carry none.
 */
import { describe, expect, it } from "vitest";
import type { OlmSenderDeps, ProcessedToDevice } from "../../src/crypto/olm-senders";
import { parseDecryptedToDevice, parseProcessedToDevice } from "../../src/crypto/olm-senders";

const devices: Record<string, Array<{ id: string; ed: string }>> = {
  "@b:hs": [
    { id: "B1", ed: "edB1" },
    { id: "B2", ed: "edB2" },
  ],
};

const deps = {
  engine: {
    UserId: class {
      constructor(readonly id: string) {
        if (!id.startsWith("@")) throw new Error("bad id");
      }
    },
  },
  machine: {
    getUserDevices: (user: { id: string }) =>
      Promise.resolve({
        devices: () =>
          (devices[user.id] ?? []).map((d) => ({
            deviceId: { toString: () => d.id },
            ed25519Key: { toBase64: () => d.ed },
            free: () => undefined,
          })),
        free: () => undefined,
      }),
  },
} as unknown as OlmSenderDeps;

const content = { member: { claimed_device_id: "B2" } };

describe("parseDecryptedToDevice", () => {
  it("marks a decrypted event with the device owning the plaintext's signing key", async () => {
    const json = JSON.stringify([
      { type: "x", sender: "@b:hs", content, keys: { ed25519: "edB1" } },
      { type: "x", sender: "@b:hs", content },
      { type: "x", sender: "@b:hs", content, keys: { ed25519: "unknown" } },
      { type: "x", sender: "@c:hs", content, keys: { ed25519: "edB1" } },
      { type: 5, sender: "@b:hs", content },
    ]);
    const events = await parseDecryptedToDevice(deps, json);
    expect(events.map((e) => e.senderDevice)).toEqual(["B1", undefined, undefined, undefined]);
    expect(events[0]).toEqual({ type: "x", sender: "@b:hs", content, senderDevice: "B1" });
  });
});

/** An engine output item (crypto-wasm 18's processed to-device event) with a `free` count. */
function item(raw: unknown, senderDevice?: string | null): ProcessedToDevice & { freed: number } {
  const out = {
    freed: 0,
    rawEvent: JSON.stringify(raw),
    free() {
      out.freed += 1;
    },
  };
  if (senderDevice !== undefined) {
    Object.defineProperty(out, "encryptionInfo", {
      get: () => ({
        senderDevice:
          senderDevice === null ? undefined : { toString: () => senderDevice, free: () => undefined },
        free: () => undefined,
      }),
    });
  }
  return out as unknown as ProcessedToDevice & { freed: number };
}

describe("parseProcessedToDevice", () => {
  it("takes the engine's sender device, falls back to the signing key, keeps order and frees each item", async () => {
    const items = [
      item({ type: "x", sender: "@b:hs", content }, "B2"),
      item({ type: "x", sender: "@b:hs", content, keys: { ed25519: "edB1" } }, null),
      item({ type: "y", sender: "@b:hs", content }),
      item({ sender: "@b:hs", content }),
    ];
    const events = await parseProcessedToDevice(deps, items);
    expect(events.map((e) => [e.type, e.senderDevice])).toEqual([
      ["x", "B2"],
      ["x", "B1"],
      ["y", undefined],
    ]);
    expect(items.map((i) => i.freed)).toEqual([1, 1, 1, 1]);
  });
});
