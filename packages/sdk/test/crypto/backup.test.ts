/**
 * Key backup over the test homeserver: bob creates a backup (auth data
 * signed by his device), his keys go up (and later keys follow after each
 * sync), a new device of bob restores with the recovery key and its
 * waiting historical events decrypt in place; a wrong key is refused;
 * DELETE /room_keys/keys with the version empties the backup. Plus the
 * recovery key format.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getRoomKeys } from "../../src/api/room-keys";
import { sendEvent } from "../../src/api/send";
import type { DecryptedUpdate } from "../../src/crypto/CryptoMachine";
import { decryptionInfoOf } from "../../src/crypto/decrypt";
import { CryptoError } from "../../src/crypto/errors";
import { decodeRecoveryKey, encodeRecoveryKey, RecoveryKeyError } from "../../src/crypto/recovery-key";
import type { Account, TestDevice, TestServerHandle } from "./helpers";
import { call, login, openDevice, register, startServer, syncUntil, timelineOf } from "./helpers";

let server: TestServerHandle;
let aliceAccount: Account;
let bobAccount: Account;
let alice: TestDevice;
let bob: TestDevice;
let roomId: string;
let txn = 0;
const devices: TestDevice[] = [];

async function open(account: Account): Promise<TestDevice> {
  const device = await openDevice(server, account);
  devices.push(device);
  await device.sync();
  return device;
}

async function say(text: string): Promise<string> {
  const encrypted = await alice.crypto.encryptRoomEvent(roomId, "m.room.message", {
    msgtype: "m.text",
    body: text,
  });
  return (await sendEvent(alice.http, roomId, encrypted.type, `b${++txn}`, encrypted.content)).event_id;
}

beforeAll(async () => {
  server = await startServer(73);
  aliceAccount = await register(server, "alice");
  bobAccount = await register(server, "bob");
  alice = await open(aliceAccount);
  bob = await open(bobAccount);
  roomId = String(
    (
      await call(server, aliceAccount, "POST", "/createRoom", {
        invite: [bobAccount.userId],
        initial_state: [
          { type: "m.room.encryption", state_key: "", content: { algorithm: "m.megolm.v1.aes-sha2" } },
        ],
      })
    )["room_id"],
  );
  await call(server, bobAccount, "POST", `/join/${encodeURIComponent(roomId)}`, {});
  await alice.sync();
  await bob.sync();
}, 60_000);

afterAll(async () => {
  for (const device of devices) await device.crypto.close();
  await server.stop();
});

describe("recovery key format", () => {
  it("round-trips 32 bytes and rejects typos", () => {
    const key = Uint8Array.from({ length: 32 }, (_, i) => (i * 37 + 11) % 256);
    const text = encodeRecoveryKey(key);
    expect(text).toMatch(/^Es[1-9A-HJ-NP-Za-km-z]{2}( [1-9A-HJ-NP-Za-km-z]{1,4})+$/);
    expect(decodeRecoveryKey(text)).toEqual(key);
    expect(decodeRecoveryKey(text.replace(/ /g, ""))).toEqual(key);
    const typo = (text[5] === "a" ? "b" : "a") as string;
    expect(() => decodeRecoveryKey(text.slice(0, 5) + typo + text.slice(6))).toThrow(RecoveryKeyError);
    expect(() => decodeRecoveryKey(text + "1")).toThrow(RecoveryKeyError);
    expect(() => decodeRecoveryKey("0OIl")).toThrow(RecoveryKeyError);
    expect(() => encodeRecoveryKey(new Uint8Array(31))).toThrow(RecoveryKeyError);
  });
});

describe("key backup", () => {
  let version: string;
  let recoveryKey: string;
  const early: string[] = [];

  it("creates a signed backup and uploads bob's keys", async () => {
    early.push(await say("one"), await say("two"));
    const seen = new Set<string>();
    await syncUntil(bob, (b) => {
      for (const e of timelineOf(b, roomId)) if (e.type === "m.room.message") seen.add(e.event_id);
      return early.every((id) => seen.has(id)) ? true : undefined;
    });
    ({ version, recoveryKey } = await bob.crypto.backup.create());
    expect(version).not.toBe("");
    const info = await call(server, bobAccount, "GET", `/room_keys/version/${version}`);
    const signatures = (info["auth_data"] as { signatures?: Record<string, Record<string, string>> })
      .signatures;
    expect(Object.keys(signatures?.[bobAccount.userId] ?? {})).toContain(`ed25519:${bobAccount.deviceId}`);
    const counts = await bob.crypto.backup.upload();
    expect(counts.total).toBeGreaterThan(0);
    expect(counts.backedUp).toBe(counts.total);
    const stored = await getRoomKeys(bob.http, version);
    expect(Object.keys(stored.rooms[roomId]?.sessions ?? {}).length).toBeGreaterThan(0);
  });

  it("backs up new keys after a sync without being asked", async () => {
    await alice.crypto.rotateRoomKey(roomId);
    const id = await say("three, new session");
    await syncUntil(bob, (b) => timelineOf(b, roomId).find((e) => e.event_id === id));
    const counts = await bob.crypto.backup.counts();
    expect(counts.backedUp).toBe(counts.total);
    const stored = await getRoomKeys(bob.http, version);
    expect(Object.keys(stored.rooms[roomId]?.sessions ?? {}).length).toBe(2);
    early.push(id);
  });

  it("a new device restores with the recovery key: waiting events decrypt in place", async () => {
    await new Promise((r) => setTimeout(r, 20));
    const bob2 = await open(await login(server, bobAccount));
    await bob2.sync();
    const updates: DecryptedUpdate[] = [];
    bob2.crypto.onEventDecrypted((u) => updates.push(u));
    expect(bob2.crypto.pendingDecryptions).toBe(3);

    const other = encodeRecoveryKey(new Uint8Array(32).fill(7));
    await expect(bob2.crypto.backup.restore(other)).rejects.toBeInstanceOf(CryptoError);

    const restored = await bob2.crypto.backup.restore(recoveryKey);
    expect(restored).toEqual({ total: 2, imported: 2 });
    await expect.poll(() => updates.length, { timeout: 5000 }).toBe(3);
    expect(new Set(updates.map((u) => u.eventId))).toEqual(new Set(early));
    expect(updates.map((u) => u.event.content["body"]).sort()).toEqual(["one", "three, new session", "two"]);
    for (const u of updates) expect(decryptionInfoOf(u.event)?.failure).toBeUndefined();
  });

  it("deletes the backed-up keys with the version, then the version", async () => {
    await bob.crypto.backup.deleteKeys(version);
    expect((await getRoomKeys(bob.http, version)).rooms).toEqual({});
    await bob.crypto.backup.deleteVersion(version);
    const res = await fetch(`${server.url}/_matrix/client/v3/room_keys/version/${version}`, {
      headers: { Authorization: `Bearer ${bobAccount.accessToken}` },
    });
    expect(res.status).toBe(404);
  });
});
