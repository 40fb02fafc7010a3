/**
 * Devices that arrive later and the history they may read. A third device
 * of bob reads the room's earlier messages through key forwarding: its
 * failed decryptions send m.room_key_request to bob's other devices, and
 * once the two devices trust each other the first one forwards the keys and
 * the waiting events decrypt in place. (Through the backup: recovery.test.)
 * A user who joins later reads what was sent while invited under "shared"
 * history visibility, but not under "joined", where only messages after the
 * join decrypt and nobody forwards the earlier key. Secret sharing between
 * own devices (m.secret.request / m.secret.send): a new device, once it and
 * the first device trust each other, asks for the secrets it lacks; the
 * engine takes the cross-signing keys, the backup key restores the backup
 * (the waiting history decrypts in place), and the device signs itself.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ClientEventWithoutRoomId } from "../../../src/api/types/events";
import { CrossSigning } from "../../../src/crypto/cross-signing";
import type { DecryptedUpdate } from "../../../src/crypto/CryptoMachine";
import { decryptionInfoOf } from "../../../src/crypto/decrypt";
import type { Account, TestDevice, TestServerHandle } from "../helpers";
import { call, login, openDevice, register, startServer, syncUntil, timelineOf } from "../helpers";
import { bootstrapCrossSigning, encryptedRoom, say } from "./support";

let server: TestServerHandle;
let aliceAccount: Account;
let bobAccount: Account;
let alice: TestDevice;
let bob: TestDevice;
const devices: TestDevice[] = [];

async function open(account: Account): Promise<TestDevice> {
  const device = await openDevice(server, account);
  devices.push(device);
  await device.sync();
  return device;
}

/** An event as the server stores it (still encrypted). */
async function rawEvent(as: Account, roomId: string, eventId: string): Promise<ClientEventWithoutRoomId> {
  const path = `/rooms/${encodeURIComponent(roomId)}/event/${encodeURIComponent(eventId)}`;
  return (await call(server, as, "GET", path)) as unknown as ClientEventWithoutRoomId;
}

beforeAll(async () => {
  server = await startServer(113);
  aliceAccount = await register(server, "alice");
  bobAccount = await register(server, "bob");
  alice = await open(aliceAccount);
  bob = await open(bobAccount);
}, 60_000);

afterAll(async () => {
  for (const device of devices) await device.crypto.close();
  await server.stop();
});

describe("a device that arrives later", () => {
  it("reads history through room keys forwarded by another own device it trusts", async () => {
    const roomId = await encryptedRoom(server, aliceAccount, [bobAccount]);
    await alice.sync();
    await bob.sync();
    const early = [await say(alice, roomId, "early one"), await say(alice, roomId, "early two")];
    await syncUntil(bob, (b) =>
      timelineOf(b, roomId).some((e) => e.event_id === early[1]) ? true : undefined,
    );

    // Bob's first device takes the new device's key requests only after it trusts it.
    bob.deferToDevice = true;
    const bob3 = await open(await login(server, bobAccount));
    const updates: DecryptedUpdate[] = [];
    bob3.crypto.onEventDecrypted((u) => updates.push(u));
    expect(bob3.crypto.pendingDecryptions).toBe(2);
    await bob.sync();
    expect(await bob.crypto.setDeviceVerification(bobAccount.userId, bob3.account.deviceId, 1)).toBe(true);
    await bob3.crypto.getUserDevices(bobAccount.userId, 5);
    expect(await bob3.crypto.setDeviceVerification(bobAccount.userId, bob.account.deviceId, 1)).toBe(true);
    expect(bob3.http.requests.some((r) => r.path.startsWith("/sendToDevice/m.room_key_request/"))).toBe(
      false,
    );
    // With a trusted own device to ask, a decryption attempt (the timeline shown again) requests the keys.
    for (const id of early) {
      const retry = await bob3.crypto.decryptEvent(roomId, await rawEvent(bobAccount, roomId, id));
      expect(retry.info.failure?.expected).toBe(true);
    }
    await bob3.crypto.flush();
    expect(bob3.http.requests.some((r) => r.path.startsWith("/sendToDevice/m.room_key_request/"))).toBe(true);
    bob.deferToDevice = false;
    await bob.sync();

    for (let i = 0; i < 10 && updates.length < 2; i += 1) await bob3.sync();
    expect(updates.map((u) => u.event.content["body"]).sort()).toEqual(["early one", "early two"]);
    expect(new Set(updates.map((u) => u.eventId))).toEqual(new Set(early));
    expect(bob3.crypto.pendingDecryptions).toBe(0);
  });
});

describe("a user who joins later", () => {
  async function roomWith(visibility: string, carol: TestDevice): Promise<string> {
    const roomId = await encryptedRoom(
      server,
      aliceAccount,
      [],
      [{ type: "m.room.history_visibility", state_key: "", content: { history_visibility: visibility } }],
    );
    await call(server, aliceAccount, "POST", `/rooms/${encodeURIComponent(roomId)}/invite`, {
      user_id: carol.account.userId,
    });
    await alice.sync();
    return roomId;
  }

  it("reads what was sent while invited under shared visibility, not under joined", async () => {
    const carol = await open(await register(server, "carol"));
    const shared = await roomWith("shared", carol);
    const joined = await roomWith("joined", carol);
    const whileInvited = {
      shared: await say(alice, shared, "shared: while invited"),
      joined: await say(alice, joined, "joined: while invited"),
    };
    for (const roomId of [shared, joined]) {
      await call(server, carol.account, "POST", `/join/${encodeURIComponent(roomId)}`, {});
    }
    await alice.sync();
    const afterJoin = await say(alice, joined, "joined: after the join");

    const seen = new Map<string, { body: unknown; failed: boolean; expected?: boolean }>();
    for (let i = 0; i < 10 && seen.size < 3; i += 1) {
      const batch = await carol.sync();
      for (const roomId of [shared, joined]) {
        for (const e of timelineOf(batch, roomId)) {
          const failure = decryptionInfoOf(e)?.failure;
          if (e.type === "m.room.message") {
            seen.set(e.event_id, {
              body: e.content["body"],
              failed: failure !== undefined,
              ...(failure ? { expected: failure.expected } : {}),
            });
          }
        }
      }
    }
    expect(seen.get(whileInvited.shared)).toEqual({ body: "shared: while invited", failed: false });
    expect(seen.get(afterJoin)).toEqual({ body: "joined: after the join", failed: false });
    // The server does not show it to carol; and her engine has no key for it either.
    expect(seen.has(whileInvited.joined)).toBe(false);
    const hidden = await carol.crypto.decryptEvent(
      joined,
      await rawEvent(aliceAccount, joined, whileInvited.joined),
    );
    expect(hidden.info.failure).toBeDefined();
    expect(hidden.event.content["body"]).toMatch(/^\*\* Unable to decrypt: .+ \*\*$/);

    // Nobody forwards the earlier key: more syncs on both sides change nothing.
    const late: DecryptedUpdate[] = [];
    carol.crypto.onEventDecrypted((u) => late.push(u));
    await alice.sync();
    await carol.sync();
    await alice.sync();
    await carol.sync();
    expect(late).toEqual([]);
    const again = await carol.crypto.decryptEvent(
      joined,
      await rawEvent(aliceAccount, joined, whileInvited.joined),
    );
    expect(again.info.failure).toBeDefined();
  });
});

describe("secret sharing between own devices", () => {
  it("a trusted new device gets the cross-signing and backup keys from the first one", async () => {
    const roomId = await encryptedRoom(server, aliceAccount, [bobAccount]);
    await alice.sync();
    await bob.sync();
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
    // The first test's history and this room's message.
    expect(bob4.crypto.pendingDecryptions).toBe(3);
    await bob.sync();
    expect(await bob.crypto.setDeviceVerification(bobAccount.userId, bob4.account.deviceId, 1)).toBe(true);
    await bob4.crypto.getUserDevices(bobAccount.userId, 5);
    expect(await bob4.crypto.setDeviceVerification(bobAccount.userId, bob.account.deviceId, 1)).toBe(true);

    expect(await bob4.crypto.recovery.requestSecrets()).toBe(true);
    expect(bob4.http.requests.some((r) => r.path.startsWith("/sendToDevice/m.secret.request/"))).toBe(true);
    bob.deferToDevice = false;
    await bob.sync();
    expect(bob.http.requests.some((r) => r.path.startsWith("/sendToDevice/m.room.encrypted/"))).toBe(true);

    for (let i = 0; i < 10 && updates.length < 3; i += 1) await bob4.sync();
    expect(await restored).toMatchObject({ imported: 2 });
    expect(updates.map((u) => u.event.content["body"]).sort()).toEqual([
      "early one",
      "early two",
      "kept in the backup",
    ]);

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
