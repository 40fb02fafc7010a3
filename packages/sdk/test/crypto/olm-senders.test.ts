/**
 * The Olm sender device of decrypted to-device events: looked up by the
 * plaintext's signing key in the engine's device store, never taken from
 * what the sender claims; events in the clear carry none.
 */
import { describe, expect, it } from "vitest";
import type { OlmSenderDeps } from "../../src/crypto/olm-senders";
import { parseDecryptedToDevice } from "../../src/crypto/olm-senders";

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
