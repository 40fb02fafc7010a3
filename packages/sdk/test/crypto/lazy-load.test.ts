/**
 * The engine loads lazily: importing the SDK (its index, the sync pieces
 * and the crypto index) does not pull @matrix-org/matrix-sdk-crypto-wasm
 * into the module graph; a LazyCrypto hook passes unencrypted batches
 * through without loading it (also when they report one-time keys on the
 * server, or no counts at all, like a restored snapshot), and loads it once
 * on the first batch with an encrypted room. A batch reporting no
 * signed_curve25519 key (a new device) loads it in the background: the
 * batch comes back at once, unchanged. The module factory below runs only
 * when something imports the package, so its counter is the module graph's
 * witness.
 */
import { describe, expect, it, vi } from "vitest";
import type { HttpApi } from "../../src/http/types";
import type { ParsedSync } from "../../src/sync/validate/types";

let imported = 0;
vi.doMock("@matrix-org/matrix-sdk-crypto-wasm", async (importOriginal) => {
  imported += 1;
  return importOriginal();
});

function batchWith(
  roomId: string,
  stateType: string,
  content: Record<string, unknown>,
  next: string,
): ParsedSync {
  return {
    nextBatch: next,
    rooms: {
      join: new Map([
        [
          roomId,
          {
            state: [
              {
                event_id: `$${next}`,
                type: stateType,
                state_key: "",
                sender: "@a:x",
                origin_server_ts: 1,
                content,
              },
            ],
            timeline: { events: [], limited: false },
            ephemeral: [],
            accountData: [],
          },
        ],
      ]),
      invite: new Map(),
      leave: new Map(),
      knock: new Map(),
    },
    presence: [],
    accountData: [],
    toDevice: [],
    deviceLists: { changed: [], left: [] },
  };
}

/** An HttpApi that refuses everything: the machine's background key upload fails quietly. */
const offline: HttpApi = { request: () => Promise.reject(new Error("offline")) };

describe("lazy engine loading", () => {
  it("importing the SDK and passing unencrypted batches loads nothing", async () => {
    await import("../../src/index");
    await import("../../src/sync/index");
    const crypto = await import("../../src/crypto/index");
    expect(imported).toBe(0);
    expect(crypto.isCryptoEngineRequested()).toBe(false);

    let created = 0;
    const lazy = new crypto.LazyCrypto(async (rooms) => {
      created += 1;
      return crypto.CryptoMachine.create({ userId: "@a:x", deviceId: "DEVA", http: offline, rooms });
    });
    const plain = batchWith("!plain:x", "m.room.name", { name: "Plain" }, "s1");
    expect(await lazy.decryptHook(plain)).toBe(plain);
    // A device whose one-time keys are on the server needs no engine either.
    const withKeys = { ...batchWith("!plain:x", "m.room.topic", { topic: "t" }, "s1b") };
    withKeys.oneTimeKeysCount = new Map([["signed_curve25519", 50]]);
    expect(crypto.deviceNeedsKeys(withKeys)).toBe(false);
    expect(await lazy.decryptHook(withKeys)).toBe(withKeys);
    expect(imported).toBe(0);
    expect(created).toBe(0);
    expect(lazy.current).toBeUndefined();

    const encrypted = batchWith(
      "!secret:x",
      "m.room.encryption",
      { algorithm: "m.megolm.v1.aes-sha2" },
      "s2",
    );
    const out = await lazy.decryptHook(encrypted);
    expect(out.nextBatch).toBe("s2");
    expect(imported).toBe(1);
    expect(created).toBe(1);
    expect(crypto.cryptoEngineLoadCount()).toBe(1);
    expect(lazy.current?.isRoomEncrypted("!secret:x")).toBe(true);
    expect(lazy.current?.isRoomEncrypted("!plain:x")).toBe(false);
    expect(lazy.isRoomEncrypted("!secret:x")).toBe(true);
    await expect(lazy.encrypt("!plain:x", "m.room.message", { body: "x" })).rejects.toMatchObject({
      code: "room_not_encrypted",
    });

    // Later batches reuse the machine; a second machine reuses the loaded engine.
    await lazy.decryptHook(batchWith("!plain:x", "m.room.topic", { topic: "t" }, "s3"));
    expect(created).toBe(1);
    const other = await crypto.CryptoMachine.create({ userId: "@b:x", deviceId: "DEVB", http: offline });
    expect(crypto.cryptoEngineLoadCount()).toBe(1);
    expect(imported).toBe(1);
    await other.close();
    await lazy.current?.close();
  });

  it("a batch saying the device has no one-time keys loads the engine in the background", async () => {
    const crypto = await import("../../src/crypto/index");
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let created = 0;
    const lazy = new crypto.LazyCrypto(async (rooms) => {
      created += 1;
      await gate;
      return crypto.CryptoMachine.create({ userId: "@n:x", deviceId: "NEW", http: offline, rooms });
    });
    const fresh = batchWith("!plain:x", "m.room.name", { name: "Plain" }, "n1");
    fresh.oneTimeKeysCount = new Map();
    expect(crypto.deviceNeedsKeys(fresh)).toBe(true);
    // The batch is not held while the engine loads.
    expect(await lazy.decryptHook(fresh)).toBe(fresh);
    expect(created).toBe(1);
    expect(lazy.current).toBeUndefined();
    release();
    const machine = await lazy.ensure();
    expect(created).toBe(1);
    expect(lazy.current).toBe(machine);
    await lazy.close();
    await expect(lazy.ensure()).resolves.toBe(machine);
  });
});
