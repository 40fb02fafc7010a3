/**
 * Secret storage interop with matrix-js-sdk 43 (Rust crypto), both ways, on
 * the test homeserver. Lattice sets up recovery; a js-sdk device of the
 * same user, given the recovery key, takes the cross-signing keys and the
 * backup key out of Lattice's secret storage (and Lattice then sees it
 * verified). The js-sdk sets up secret storage, cross-signing and a backup;
 * a Lattice device recovers with the js-sdk's recovery key.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MatrixClient } from "matrix-js-sdk";
import { base64ToBytes, decodeRecoveryKey } from "../../../src/crypto/recovery-key";
import { SecretName } from "../../../src/crypto/secrets/SecretStorage";
import type { TestDevice, TestServerHandle } from "../helpers";
import { login, openDevice, register, startServer } from "../helpers";
import { bootstrapCrossSigning } from "../secrets/support";
import { startJsClient } from "./jssdk-client";

let server: TestServerHandle;
const lattice: TestDevice[] = [];
const js: MatrixClient[] = [];

beforeAll(async () => {
  server = await startServer(139);
});

afterAll(async () => {
  for (const client of js) client.stopClient();
  for (const device of lattice) await device.crypto.close();
  await server?.stop();
});

async function latticeDevice(account: Parameters<typeof openDevice>[1]): Promise<TestDevice> {
  const device = await openDevice(server, account);
  lattice.push(device);
  await device.sync();
  return device;
}

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
