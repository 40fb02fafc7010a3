/**
 * Interop with matrix-js-sdk 43 and its own Rust crypto (initRustCrypto,
 * memory store): a Lattice device and a js-sdk client on the test
 * homeserver share an encrypted room and exchange encrypted messages both
 * ways, each side decrypting what the other's engine encrypted; every
 * answer the server gives the js-sdk passes the spec validator too. Secret
 * storage both ways: Lattice sets up recovery and a js-sdk device of the
 * same user, given the recovery key, takes the cross-signing and backup
 * keys out of it (Lattice then sees it verified); the js-sdk sets up secret
 * storage, cross-signing and a backup, and a Lattice device recovers with
 * the js-sdk's recovery key. One file: each engine starts once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MatrixClient, MatrixEvent } from "matrix-js-sdk";
import type { Account, TestDevice, TestServerHandle } from "../helpers";
import { base64ToBytes, decodeRecoveryKey } from "../../../src/crypto/recovery-key";
import { SecretName } from "../../../src/crypto/secrets/SecretStorage";
import { call, login, openDevice, register, startServer, syncUntil, timelineOf } from "../helpers";
import { bootstrapCrossSigning, say } from "../secrets/support";
import { startJsClient } from "./jssdk-client";

let server: TestServerHandle;
let alice: TestDevice;
let bobAccount: Account;
let bob: MatrixClient;
let roomId: string;
const lattice: TestDevice[] = [];
const js: MatrixClient[] = [];

/** Resolves with the first decrypted js-sdk event whose body is `body`. */
function bobReceives(body: string): Promise<MatrixEvent> {
  return new Promise((resolve) => {
    const check = (event: MatrixEvent): void => {
      if (
        event.getRoomId() === roomId &&
        !event.isDecryptionFailure() &&
        event.getContent()["body"] === body
      ) {
        bob.off("Event.decrypted" as never, check as never);
        resolve(event);
      }
    };
    bob.on("Event.decrypted" as never, check as never);
  });
}

beforeAll(async () => {
  server = await startServer(107);
  const aliceAccount = await register(server, "alice");
  bobAccount = await register(server, "bob");
  alice = await openDevice(server, aliceAccount);
  await alice.sync();
  bob = await startJsClient(server, bobAccount);

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
  await bob.joinRoom(roomId);
  await syncUntil(alice, (b) =>
    timelineOf(b, roomId).some((e) => e.type === "m.room.member" && e.state_key === bobAccount.userId)
      ? true
      : undefined,
  );
}, 60_000);

afterAll(async () => {
  bob?.stopClient();
  for (const client of js) client.stopClient();
  await alice?.crypto.close();
  for (const device of lattice) await device.crypto.close();
  await server?.stop();
});

async function latticeDevice(account: Parameters<typeof openDevice>[1]): Promise<TestDevice> {
  const device = await openDevice(server, account);
  lattice.push(device);
  await device.sync();
  return device;
}

describe("interop with matrix-js-sdk (Rust crypto)", () => {
  it("exchanges encrypted messages both ways", async () => {
    // The js-sdk must have uploaded its device keys before Lattice encrypts to it.
    await expect
      .poll(async () => (await alice.crypto.getUserDevices(bobAccount.userId, 2)).length, { timeout: 10_000 })
      .toBe(1);
    const received = bobReceives("hello from Lattice");
    const sentId = await say(alice, roomId, "hello from Lattice");
    const event = await received;
    expect(event.getId()).toBe(sentId);
    expect(event.getWireType()).toBe("m.room.encrypted");
    expect(event.getSender()).toBe(alice.account.userId);

    const reply = await bob.sendTextMessage(roomId, "hello from js-sdk");
    const got = await syncUntil(
      alice,
      (b) => timelineOf(b, roomId).find((e) => e.event_id === reply.event_id),
      20,
    );
    expect(got.type).toBe("m.room.message");
    expect(got.content["body"]).toBe("hello from js-sdk");
    expect(got.sender).toBe(bobAccount.userId);
  });
});

describe("secret storage interop with matrix-js-sdk", () => {
  it("a js-sdk device reads Lattice's secret storage with the recovery key", async () => {
    const account = await register(server, "dana");
    const first = await latticeDevice(account);
    await bootstrapCrossSigning(first);
    const { recoveryKey, keyId } = await first.crypto.recovery.setUp();
    const unlocked = await first.crypto.secretStorage.keyFromRecoveryKey(recoveryKey);
    const backupKey = base64ToBytes(await first.crypto.secretStorage.get(SecretName.MegolmBackup, unlocked));

    const jsAccount = await login(server, account);
    const asked: string[][] = [];
    const client = await startJsClient(server, jsAccount, {
      secretStorageKey: ({ keys }) => {
        asked.push(Object.keys(keys));
        return Promise.resolve([keyId, new Uint8Array(decodeRecoveryKey(recoveryKey))]);
      },
    });
    js.push(client);
    const crypto = client.getCrypto();
    if (!crypto) throw new Error("js-sdk crypto missing");
    await crypto.bootstrapCrossSigning({});
    expect(asked.flat()).toContain(keyId);
    expect((await crypto.getCrossSigningStatus()).privateKeysCachedLocally).toEqual({
      masterKey: true,
      selfSigningKey: true,
      userSigningKey: true,
    });
    expect(await crypto.isCrossSigningReady()).toBe(true);
    await crypto.loadSessionBackupPrivateKeyFromSecretStorage();
    expect(await crypto.getSessionBackupPrivateKey()).toEqual(backupKey);

    // The js-sdk signed its device with the shared self-signing key: Lattice sees it verified.
    await expect
      .poll(
        async () => {
          await first.sync();
          const devices = await first.crypto.getUserDevices(account.userId);
          return devices.find((d) => d.deviceId === jsAccount.deviceId)?.verification;
        },
        { timeout: 10_000 },
      )
      .toBe(1);
  });

  it("a Lattice device recovers from the js-sdk's secret storage", async () => {
    const account = await register(server, "erin");
    const held: { key?: Uint8Array<ArrayBuffer> } = {};
    const client = await startJsClient(server, account, {
      secretStorageKey: ({ keys }) =>
        Promise.resolve(held.key ? [Object.keys(keys)[0] ?? "", held.key] : null),
    });
    js.push(client);
    const crypto = client.getCrypto();
    if (!crypto) throw new Error("js-sdk crypto missing");
    const generated = await crypto.createRecoveryKeyFromPassphrase();
    held.key = generated.privateKey;
    await crypto.bootstrapCrossSigning({
      authUploadDeviceSigningKeys: async (makeRequest) => {
        await makeRequest(null);
      },
    });
    await crypto.bootstrapSecretStorage({
      createSecretStorageKey: () => Promise.resolve(generated),
      setupNewSecretStorage: true,
      setupNewKeyBackup: true,
    });
    const recoveryKey = generated.encodedPrivateKey;
    if (!recoveryKey) throw new Error("no recovery key");

    const device = await latticeDevice(await login(server, account));
    const result = await device.crypto.recovery.recover({ recoveryKey });
    expect(result.crossSigning).toBe(true);
    expect(result.backup?.version).toBe((await crypto.getActiveSessionBackupVersion()) ?? "none");
    const mine = await device.crypto.getUserDevices(account.userId, 2);
    expect(mine.find((d) => d.deviceId === device.account.deviceId)?.verification).toBe(1);
  });
});
