/**
 * Secret sharing between own devices over to-device (m.secret.request /
 * m.secret.send): a new device of bob, once it and bob's first device trust
 * each other, asks for the secrets it lacks; the first device answers over
 * Olm, the engine takes the cross-signing keys, and the backup key restores
 * the backup so the waiting history decrypts in place; the new device then
 * signs itself with the shared self-signing key.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CrossSigning } from "../../../src/crypto/cross-signing";
import type { DecryptedUpdate } from "../../../src/crypto/CryptoMachine";
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

beforeAll(async () => {
  server = await startServer(127);
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

describe("secret sharing between own devices", () => {
  it("a trusted new device gets the cross-signing and backup keys from the first one", async () => {
    await bootstrapCrossSigning(bob);
    await bob.crypto.backup.create();
    const early = await say(alice, roomId, "kept in the backup");
    await syncUntil(bob, (b) => timelineOf(b, roomId).find((e) => e.event_id === early));
    await bob.crypto.backup.upload();

    bob.deferToDevice = true;
    const bob4 = await open(await login(server, bobAccount));
    const updates: DecryptedUpdate[] = [];
    bob4.crypto.onEventDecrypted((u) => updates.push(u));
    const restored = new Promise<unknown>((resolve) => bob4.crypto.recovery.onBackupKeyReceived(resolve));
    expect(bob4.crypto.pendingDecryptions).toBe(1);
    await bob.sync();
    expect(await bob.crypto.setDeviceVerification(bobAccount.userId, bob4.account.deviceId, 1)).toBe(true);
    await bob4.crypto.getUserDevices(bobAccount.userId, 5);
    expect(await bob4.crypto.setDeviceVerification(bobAccount.userId, bob.account.deviceId, 1)).toBe(true);

    expect(await bob4.crypto.recovery.requestSecrets()).toBe(true);
    expect(bob4.http.requests.some((r) => r.path.startsWith("/sendToDevice/m.secret.request/"))).toBe(true);
    bob.deferToDevice = false;
    await bob.sync();
    expect(bob.http.requests.some((r) => r.path.startsWith("/sendToDevice/m.room.encrypted/"))).toBe(true);

    for (let i = 0; i < 10 && updates.length < 1; i += 1) await bob4.sync();
    expect(await restored).toMatchObject({ imported: 1 });
    expect(updates.map((u) => u.event.content["body"])).toEqual(["kept in the backup"]);

    const status = await new CrossSigning(bob4.crypto.internals).status();
    expect(status).toMatchObject({
      hasMaster: true,
      hasSelfSigning: true,
      hasUserSigning: true,
      deviceSigned: false,
    });
    await bob4.crypto.recovery.signOwnDevice();
    expect((await new CrossSigning(bob4.crypto.internals).status()).deviceSigned).toBe(true);
  });
});
