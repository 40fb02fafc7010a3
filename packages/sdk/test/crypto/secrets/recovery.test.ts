/**
 * Recovery over the test homeserver: bob's first device (cross-signing
 * bootstrapped) sets up recovery (4S default key with the key check, the
 * cross-signing keys and the backup key stored encrypted in account data);
 * a new device of bob refuses a wrong recovery key, then recovers with the
 * right one: the cross-signing keys go into its engine, it signs itself and
 * every device of bob shows it verified (1), and the history waiting for
 * keys decrypts in place from the backup. A passphrase opens recovery too.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAccountData } from "../../../src/api/account-data";
import type { DecryptedUpdate } from "../../../src/crypto/CryptoMachine";
import { encodeRecoveryKey } from "../../../src/crypto/recovery-key";
import { SecretStorageError } from "../../../src/crypto/secrets/errors";
import { AES_HMAC_SHA2 } from "../../../src/crypto/secrets/aesHmac";
import { DEFAULT_KEY_TYPE, KEY_TYPE_PREFIX, SecretName } from "../../../src/crypto/secrets/SecretStorage";
import type { Account, TestDevice, TestServerHandle } from "../helpers";
import { login, openDevice, register, startServer, syncUntil, timelineOf } from "../helpers";
import { bootstrapCrossSigning, encryptedRoom, say } from "./support";

let server: TestServerHandle;
let bobAccount: Account;
let alice: TestDevice;
let bob: TestDevice;
let roomId: string;
const devices: TestDevice[] = [];

async function open(account: Account): Promise<TestDevice> {
  const device = await openDevice(server, account);
  devices.push(device);
  await device.sync();
  return device;
}

async function verificationOf(viewer: TestDevice, deviceId: string): Promise<number | undefined> {
  await viewer.sync();
  const list = await viewer.crypto.getUserDevices(bobAccount.userId, 5);
  return list.find((d) => d.deviceId === deviceId)?.verification;
}

async function rejection(p: Promise<unknown>): Promise<SecretStorageError> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SecretStorageError);
  return error as SecretStorageError;
}

beforeAll(async () => {
  server = await startServer(91);
  const aliceAccount = await register(server, "alice");
  bobAccount = await register(server, "bob");
  alice = await open(aliceAccount);
  bob = await open(bobAccount);
  roomId = await encryptedRoom(server, aliceAccount, [bobAccount]);
  await alice.sync();
  await bob.sync();
}, 60_000);

afterAll(async () => {
  for (const device of devices) await device.crypto.close();
  await server.stop();
});

describe("recovery", () => {
  let recoveryKey: string;
  const history: string[] = [];

  it("sets up secret storage with the cross-signing and backup keys", async () => {
    await expect(bob.crypto.recovery.setUp()).rejects.toMatchObject({ code: "no_cross_signing" });
    await bootstrapCrossSigning(bob);
    expect(await bob.crypto.recovery.isSetUp()).toBe(false);
    history.push(await say(alice, roomId, "before recovery"));
    await syncUntil(bob, (b) => timelineOf(b, roomId).find((e) => e.event_id === history[0]));

    const made = await bob.crypto.recovery.setUp();
    recoveryKey = made.recoveryKey;
    expect(await bob.crypto.recovery.isSetUp()).toBe(true);
    const defaultKey = await getAccountData(bob.http, bobAccount.userId, DEFAULT_KEY_TYPE);
    expect(defaultKey).toEqual({ key: made.keyId });
    const description = await getAccountData(bob.http, bobAccount.userId, KEY_TYPE_PREFIX + made.keyId);
    expect(description).toMatchObject({
      algorithm: AES_HMAC_SHA2,
      iv: expect.any(String),
      mac: expect.any(String),
    });
    for (const name of Object.values(SecretName)) {
      const stored = await getAccountData(bob.http, bobAccount.userId, name);
      expect(Object.keys(stored?.["encrypted"] ?? {})).toEqual([made.keyId]);
      // Encrypted: the account data never holds the secret in the clear.
      expect(JSON.stringify(stored)).toMatch(/"ciphertext":"[A-Za-z0-9+/]+"/);
    }
    await bob.crypto.backup.upload();
    history.push(await say(alice, roomId, "after set-up"));
    await syncUntil(bob, (b) => timelineOf(b, roomId).find((e) => e.event_id === history[1]));
    const counts = await bob.crypto.backup.counts();
    expect(counts.backedUp).toBe(counts.total);
  });

  it("a new device refuses wrong keys, then recovers: verified everywhere, history decrypts in place", async () => {
    const bob2 = await open(await login(server, bobAccount));
    await bob2.sync();
    const updates: DecryptedUpdate[] = [];
    bob2.crypto.onEventDecrypted((u) => updates.push(u));
    expect(bob2.crypto.pendingDecryptions).toBe(2);
    expect(await verificationOf(bob, bob2.account.deviceId)).toBe(0);

    const wrong = encodeRecoveryKey(new Uint8Array(32).fill(9));
    expect((await rejection(bob2.crypto.recovery.recover({ recoveryKey: wrong }))).code).toBe("wrong_key");
    const typo = recoveryKey.slice(0, 5) + (recoveryKey[5] === "a" ? "b" : "a") + recoveryKey.slice(6);
    expect((await rejection(bob2.crypto.recovery.recover({ recoveryKey: typo }))).code).toBe("wrong_key");
    expect((await rejection(bob2.crypto.recovery.recover({ passphrase: "none set" }))).code).toBe(
      "wrong_key",
    );
    expect(updates).toEqual([]);

    const result = await bob2.crypto.recovery.recover({ recoveryKey });
    expect(result.crossSigning).toBe(true);
    expect(result.backup).toMatchObject({ imported: 1 });
    await expect.poll(() => updates.length, { timeout: 5000 }).toBe(2);
    expect(updates.map((u) => u.event.content["body"]).sort()).toEqual(["after set-up", "before recovery"]);
    expect(bob2.crypto.pendingDecryptions).toBe(0);

    expect(await verificationOf(bob2, bob2.account.deviceId)).toBe(1);
    expect(await verificationOf(bob2, bob.account.deviceId)).toBe(1);
    await expect.poll(() => verificationOf(bob, bob2.account.deviceId), { timeout: 5000 }).toBe(1);

    // The recovered device backs up to the same backup: its new keys reach it too.
    const later = await say(alice, roomId, "after recovery");
    await syncUntil(bob2, (b) => timelineOf(b, roomId).find((e) => e.event_id === later));
    const counts = await bob2.crypto.backup.counts();
    expect(counts.backedUp).toBe(counts.total);
  });

  it("a passphrase opens recovery; a wrong passphrase does not", async () => {
    // Fewer PBKDF2 rounds than the default keep the test fast; the description carries the count.
    await bob.crypto.recovery.setUp({ passphrase: "correct horse battery staple", pbkdf2Iterations: 10_000 });
    const bob3 = await open(await login(server, bobAccount));
    expect((await rejection(bob3.crypto.recovery.recover({ passphrase: "wrong horse" }))).code).toBe(
      "wrong_key",
    );
    const result = await bob3.crypto.recovery.recover({ passphrase: "correct horse battery staple" });
    expect(result.crossSigning).toBe(true);
    expect(result.backup?.total).toBeGreaterThanOrEqual(1);
    expect(await verificationOf(bob3, bob3.account.deviceId)).toBe(1);
  });
});
