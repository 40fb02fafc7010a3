/**
 * A hostile or broken sync batch must never crash the decrypt hook (a throw
 * would make the loop fetch the same batch forever): malformed user ids in
 * device lists and member state keys, ids like `__proto__`, encrypted events
 * with garbage content, undecryptable to-device events. The engine is real;
 * the HTTP side is offline.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CryptoMachine } from "../../src/crypto/CryptoMachine";
import { decryptionInfoOf } from "../../src/crypto/decrypt";
import type { HttpApi } from "../../src/http/types";
import { emptyParsedSync } from "../../src/sync/validate/types";

const offline: HttpApi = { request: () => Promise.reject(new Error("offline")) };
let crypto: CryptoMachine;

beforeAll(async () => {
  crypto = await CryptoMachine.create({ userId: "@me:x", deviceId: "ME", http: offline });
});
afterAll(async () => {
  await crypto.close();
});

const encrypted = (id: string, content: Record<string, unknown>) => ({
  event_id: id,
  type: "m.room.encrypted",
  sender: "@evil:x",
  origin_server_ts: Date.now() + 60_000,
  content,
});

describe("hostile batches", () => {
  it("drops malformed ids and turns garbage ciphertext into Unable to decrypt", async () => {
    const batch = emptyParsedSync("s1");
    batch.deviceLists = { changed: ["not a user", "__proto__", "@a:", "@ok:x"], left: ["??"] };
    batch.oneTimeKeysCount = new Map([["signed_curve25519", -5]]);
    batch.unusedFallbackKeyTypes = ["__proto__"];
    batch.toDevice = [
      {
        type: "m.room.encrypted",
        sender: "not a user",
        content: { algorithm: "m.olm.v1.curve25519-aes-sha2", ciphertext: 5 },
      },
      { type: "m.room.encrypted", sender: "@evil:x", content: {} },
    ];
    const member = (key: string) => ({
      event_id: `$m${key}`,
      type: "m.room.member",
      state_key: key,
      sender: "@evil:x",
      origin_server_ts: 1,
      content: { membership: "join" },
    });
    for (const roomId of ["__proto__", "!r:x"]) {
      batch.rooms.join.set(roomId, {
        state: [
          {
            event_id: "$enc",
            type: "m.room.encryption",
            state_key: "",
            sender: "@evil:x",
            origin_server_ts: 1,
            content: { algorithm: "m.megolm.v1.aes-sha2" },
          },
          member("__proto__"),
          member("bad id"),
          member("@fine:x"),
        ],
        timeline: {
          events: [
            encrypted("$1", {}),
            encrypted("$2", {
              algorithm: "m.megolm.v1.aes-sha2",
              ciphertext: "!!",
              session_id: "s",
              sender_key: "k",
            }),
            encrypted("$3", { algorithm: 42, ciphertext: { nested: [1] } }),
          ],
          limited: false,
        },
        ephemeral: [],
        accountData: [],
      });
    }
    const out = await crypto.decryptHook(batch);
    for (const roomId of ["__proto__", "!r:x"]) {
      const events = out.rooms.join.get(roomId)?.timeline.events ?? [];
      expect(events.map((e) => [e.event_id, e.type, e.content["msgtype"]])).toEqual([
        ["$1", "m.room.message", "m.bad.encrypted"],
        ["$2", "m.room.message", "m.bad.encrypted"],
        ["$3", "m.room.message", "m.bad.encrypted"],
      ]);
      for (const e of events) {
        expect(String(e.content["body"])).toMatch(/^\*\* Unable to decrypt: .+ \*\*$/);
        expect(decryptionInfoOf(e)?.failure?.expected).toBe(false);
      }
    }
    expect(out.toDevice.every((e) => typeof e.type === "string")).toBe(true);
    expect(crypto.isRoomEncrypted("__proto__")).toBe(true);
    // The hook still works for the next batch.
    const next = await crypto.decryptHook(emptyParsedSync("s2"));
    expect(next.nextBatch).toBe("s2");
  });

  it("refuses to encrypt for an unknown room and lists no devices for a malformed user", async () => {
    await expect(
      crypto.encryptRoomEvent("!nowhere:x", "m.room.message", { body: "x" }),
    ).rejects.toMatchObject({
      name: "CryptoError",
      code: "room_not_encrypted",
    });
    expect(await crypto.getUserDevices("not a user")).toEqual([]);
    expect(await crypto.setDeviceVerification("not a user", "D", 1)).toBe(false);
    const result = await crypto.sendToDevice("t", [{ userId: "not a user", deviceId: "D" }], {});
    expect(result).toEqual({ sent: [], skipped: [{ userId: "not a user", deviceId: "D" }] });
  });
});
