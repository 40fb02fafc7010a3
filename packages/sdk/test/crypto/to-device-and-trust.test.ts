/**
 * Olm to-device messages both ways and device trust over the test
 * homeserver: the wire carries only m.room.encrypted, the receiver's sync
 * batch carries the clear event; verification values follow SPEC §3
 * (blocked -1, unverified 0, verified 1) and a blocked device gets no room
 * key while the user's other device does.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendEvent } from "../../src/api/send";
import { decryptionInfoOf } from "../../src/crypto/decrypt";
import { DeviceVerification } from "../../src/crypto/devices";
import type { Account, TestDevice, TestServerHandle } from "./helpers";
import { call, login, openDevice, register, startServer, syncUntil, timelineOf } from "./helpers";

let server: TestServerHandle;
let aliceAccount: Account;
let bobAccount: Account;
let bob2Account: Account;
let alice: TestDevice;
let bob: TestDevice;
let bob2: TestDevice;
let roomId: string;
const devices: TestDevice[] = [];

async function open(account: Account): Promise<TestDevice> {
  const device = await openDevice(server, account);
  devices.push(device);
  await device.sync();
  return device;
}

beforeAll(async () => {
  server = await startServer(72);
  aliceAccount = await register(server, "alice");
  bobAccount = await register(server, "bob");
  bob2Account = await login(server, bobAccount);
  alice = await open(aliceAccount);
  bob = await open(bobAccount);
  bob2 = await open(bob2Account);
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
  for (const d of [alice, bob, bob2]) await d.sync();
}, 60_000);

afterAll(async () => {
  for (const device of devices) await device.crypto.close();
  await server.stop();
});

describe("encrypted to-device messages", () => {
  it("alice to bob: only ciphertext on the wire, the clear event in bob's batch", async () => {
    const result = await alice.crypto.sendToDevice(
      "org.lattice.test",
      [{ userId: bobAccount.userId, deviceId: bobAccount.deviceId }],
      { secret: "s3cret-1" },
    );
    expect(result).toEqual({
      sent: [{ userId: bobAccount.userId, deviceId: bobAccount.deviceId }],
      skipped: [],
    });
    const put = alice.http.requests.filter((r) => r.path.startsWith("/sendToDevice/"));
    expect(put.at(-1)?.path).toMatch(/^\/sendToDevice\/m\.room\.encrypted\//);
    expect(JSON.stringify(put.at(-1)?.body)).not.toContain("s3cret-1");
    const got = await syncUntil(bob, (b) => b.toDevice.find((e) => e.type === "org.lattice.test"));
    expect(got).toEqual({
      type: "org.lattice.test",
      sender: aliceAccount.userId,
      content: { secret: "s3cret-1" },
      // The device whose Olm session sent it, as the engine authenticated it.
      senderDevice: aliceAccount.deviceId,
    });
  });

  it("bob to alice, and to several devices at once; unknown devices are skipped", async () => {
    const result = await bob.crypto.sendToDevice(
      "org.lattice.test",
      [
        { userId: aliceAccount.userId, deviceId: aliceAccount.deviceId },
        { userId: bobAccount.userId, deviceId: bob2Account.deviceId },
        { userId: aliceAccount.userId, deviceId: "NOSUCHDEVICE" },
      ],
      { secret: "s3cret-2" },
    );
    expect(result.sent).toHaveLength(2);
    expect(result.skipped).toEqual([{ userId: aliceAccount.userId, deviceId: "NOSUCHDEVICE" }]);
    const atAlice = await syncUntil(alice, (b) => b.toDevice.find((e) => e.type === "org.lattice.test"));
    expect(atAlice.content).toEqual({ secret: "s3cret-2" });
    expect(atAlice.sender).toBe(bobAccount.userId);
    const atBob2 = await syncUntil(bob2, (b) => b.toDevice.find((e) => e.type === "org.lattice.test"));
    expect(atBob2.content).toEqual({ secret: "s3cret-2" });
  });
});

describe("devices and trust", () => {
  it("lists devices with verification values and blocks one (-1): it gets no room key", async () => {
    const listed = await alice.crypto.getUserDevices(bobAccount.userId, 5);
    expect(new Map(listed.map((d) => [d.deviceId, d.verification]))).toEqual(
      new Map([
        [bobAccount.deviceId, DeviceVerification.Unverified],
        [bob2Account.deviceId, DeviceVerification.Unverified],
      ]),
    );
    expect(await alice.crypto.setDeviceVerification(bobAccount.userId, bob2Account.deviceId, -1)).toBe(true);
    expect(await alice.crypto.setDeviceVerification(bobAccount.userId, bobAccount.deviceId, 1)).toBe(true);
    expect(await alice.crypto.setDeviceVerification(bobAccount.userId, "NOSUCHDEVICE", 1)).toBe(false);
    const after = await alice.crypto.getUserDevices(bobAccount.userId);
    expect(new Map(after.map((d) => [d.deviceId, d.verification]))).toEqual(
      new Map([
        [bobAccount.deviceId, 1],
        [bob2Account.deviceId, -1],
      ]),
    );

    const encrypted = await alice.crypto.encryptRoomEvent(roomId, "m.room.message", {
      msgtype: "m.text",
      body: "not for bob2",
    });
    const keyShares = alice.http.requests.filter((r) => r.path.startsWith("/sendToDevice/m.room.encrypted/"));
    const lastShare = JSON.stringify(keyShares.at(-1)?.body ?? {});
    expect(lastShare).toContain(bobAccount.deviceId);
    expect(lastShare).not.toContain(bob2Account.deviceId);
    const { event_id } = await sendEvent(alice.http, roomId, encrypted.type, "blocked1", encrypted.content);
    const atBob = await syncUntil(bob, (b) => timelineOf(b, roomId).find((e) => e.event_id === event_id));
    expect(atBob.content["body"]).toBe("not for bob2");
    const atBob2 = await syncUntil(bob2, (b) => timelineOf(b, roomId).find((e) => e.event_id === event_id));
    expect(atBob2.content["msgtype"]).toBe("m.bad.encrypted");
    // The engine told bob2 the key was withheld (m.room_key.withheld, m.blacklisted): an expected failure.
    expect(decryptionInfoOf(atBob2)?.failure).toMatchObject({ code: "withheld", expected: true });
    expect(atBob2.content["body"]).toBe("** Unable to decrypt: The sender has blocked you. **");
  });

  it("unblocking (0) lets the device get keys again", async () => {
    await alice.crypto.setDeviceVerification(bobAccount.userId, bob2Account.deviceId, 0);
    await alice.crypto.rotateRoomKey(roomId);
    const encrypted = await alice.crypto.encryptRoomEvent(roomId, "m.room.message", {
      msgtype: "m.text",
      body: "for all",
    });
    const { event_id } = await sendEvent(alice.http, roomId, encrypted.type, "unblocked1", encrypted.content);
    const atBob2 = await syncUntil(bob2, (b) => timelineOf(b, roomId).find((e) => e.event_id === event_id));
    expect(atBob2.content["body"]).toBe("for all");
  });

  it("catches up on device changes missed in a sync gap through /keys/changes", async () => {
    const { from, to: gapStart } = await bob.skipSync();
    expect(from).not.toBe("");
    const alice2 = await open(await login(server, aliceAccount)); // uploads keys while bob is away
    await alice2.crypto.flush();
    const { to } = await bob.skipSync();
    expect(to).not.toBe(gapStart);
    const before = await bob.crypto.getUserDevices(aliceAccount.userId);
    expect(before.map((d) => d.deviceId)).toEqual([aliceAccount.deviceId]);
    await bob.crypto.catchUpDeviceChanges(from, to);
    const after = await bob.crypto.getUserDevices(aliceAccount.userId, 5);
    expect(after.map((d) => d.deviceId).sort()).toEqual(
      [aliceAccount.deviceId, alice2.account.deviceId].sort(),
    );
  });
});

describe("history visibility", () => {
  it("shares the room key with invited users unless history visibility is joined", async () => {
    const carol = await open(await register(server, "carol"));
    const roomFor = async (visibility: string) => {
      const id = String(
        (
          await call(server, aliceAccount, "POST", "/createRoom", {
            invite: [carol.account.userId],
            initial_state: [
              { type: "m.room.encryption", state_key: "", content: { algorithm: "m.megolm.v1.aes-sha2" } },
              {
                type: "m.room.history_visibility",
                state_key: "",
                content: { history_visibility: visibility },
              },
            ],
          })
        )["room_id"],
      );
      await alice.sync();
      return id;
    };
    const sharedWith = async (room: string): Promise<string> => {
      const before = alice.http.requests.length;
      await alice.crypto.encryptRoomEvent(room, "m.room.message", { msgtype: "m.text", body: "hi" });
      return alice.http.requests
        .slice(before)
        .filter((r) => r.path.startsWith("/sendToDevice/m.room.encrypted/"))
        .map((r) => JSON.stringify(r.body))
        .join("\n");
    };
    const shared = await sharedWith(await roomFor("shared"));
    expect(shared).toContain(carol.account.userId);
    const joined = await sharedWith(await roomFor("joined"));
    expect(joined).not.toContain(carol.account.userId);
  });
});
