/**
 * End-to-end encryption over HTTP against the test homeserver: alice and bob
 * (and bob's second device), each with its own OlmMachine, exchange Megolm
 * room messages and Olm to-device messages; failures are classified
 * (historical vs missing key), a late key decrypts the waiting event in
 * place, one-time keys are replenished when the server's count drops, and
 * a blocked device (-1) gets no room key.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendEvent } from "../../src/api/send";
import { messages } from "../../src/api/timeline";
import type { ClientEventWithoutRoomId } from "../../src/api/types/events";
import { decryptionInfoOf } from "../../src/crypto/decrypt";
import type { DecryptedUpdate } from "../../src/crypto/CryptoMachine";
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
  return device;
}

/** Encrypts with alice's machine and sends; returns the event id. */
async function sendEncrypted(
  from: TestDevice,
  text: string,
  room = roomId,
): Promise<{ eventId: string; sessionId: unknown }> {
  const encrypted = await from.crypto.encryptRoomEvent(room, "m.room.message", {
    msgtype: "m.text",
    body: text,
  });
  const { event_id } = await sendEvent(from.http, room, encrypted.type, `e2e${++txn}`, encrypted.content);
  return { eventId: event_id, sessionId: encrypted.content["session_id"] };
}

function findEvent(eventId: string, room = roomId) {
  return (batch: Parameters<typeof timelineOf>[0]): ClientEventWithoutRoomId | undefined =>
    timelineOf(batch, room).find((e) => e.event_id === eventId);
}

beforeAll(async () => {
  server = await startServer(71);
  aliceAccount = await register(server, "alice");
  bobAccount = await register(server, "bob");
  alice = await open(aliceAccount);
  bob = await open(bobAccount);
  await alice.sync();
  await bob.sync();
  roomId = String(
    (
      await call(server, aliceAccount, "POST", "/createRoom", {
        name: "Secret",
        invite: [bobAccount.userId],
        initial_state: [
          { type: "m.room.encryption", state_key: "", content: { algorithm: "m.megolm.v1.aes-sha2" } },
          { type: "m.room.history_visibility", state_key: "", content: { history_visibility: "shared" } },
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

describe("keys", () => {
  it("uploads device keys: each side sees the other's device, unverified (0)", async () => {
    const bobDevices = await alice.crypto.getUserDevices(bobAccount.userId, 5);
    expect(bobDevices.map((d) => [d.deviceId, d.verification])).toEqual([[bobAccount.deviceId, 0]]);
    expect(bobDevices[0]?.ed25519Key).toBe(bob.crypto.identityKeys().ed25519);
    const aliceDevices = await bob.crypto.getUserDevices(aliceAccount.userId, 5);
    expect(aliceDevices.map((d) => d.deviceId)).toEqual([aliceAccount.deviceId]);
  });

  it("replenishes one-time keys when the server's count drops", async () => {
    const before = await bob.sync();
    const full = before.oneTimeKeysCount?.get("signed_curve25519") ?? 0;
    expect(full).toBeGreaterThan(10);
    for (let i = 0; i < 10; i += 1) {
      await call(server, aliceAccount, "POST", "/keys/claim", {
        one_time_keys: { [bobAccount.userId]: { [bobAccount.deviceId]: "signed_curve25519" } },
      });
    }
    const dropped = await bob.sync(); // sees full - 10, uploads new ones during flush
    expect(dropped.oneTimeKeysCount?.get("signed_curve25519")).toBe(full - 10);
    const after = await bob.sync();
    expect(after.oneTimeKeysCount?.get("signed_curve25519")).toBe(full);
  });
});

describe("room messages", () => {
  it("alice encrypts, bob decrypts in place in his sync batch", async () => {
    const { eventId } = await sendEncrypted(alice, "hello bob");
    const event = await syncUntil(bob, findEvent(eventId));
    expect(event.type).toBe("m.room.message");
    expect(event.content).toMatchObject({ msgtype: "m.text", body: "hello bob" });
    expect(event.sender).toBe(aliceAccount.userId);
    expect(decryptionInfoOf(event)?.senderDevice).toBe(aliceAccount.deviceId);
    // and the other way round
    const reply = await sendEncrypted(bob, "hi alice");
    const back = await syncUntil(alice, findEvent(reply.eventId));
    expect(back.content["body"]).toBe("hi alice");
  });

  it("decrypts a back-pagination page (/messages) the same way", async () => {
    const page = await messages(bob.http, roomId, { dir: "b", limit: 50 });
    const encrypted = page.chunk.filter((e) => e.type === "m.room.encrypted");
    expect(encrypted.length).toBeGreaterThanOrEqual(2);
    const clear = await bob.crypto.decryptEvents(roomId, page.chunk);
    expect(clear).toHaveLength(page.chunk.length);
    expect(clear.filter((e) => e.type === "m.room.encrypted")).toEqual([]);
    const bodies = clear.filter((e) => e.type === "m.room.message").map((e) => e.content["body"]);
    expect(bodies).toEqual(expect.arrayContaining(["hello bob", "hi alice"]));
  });

  it("keeps relations from the clear wire content (an edit)", async () => {
    const { eventId } = await sendEncrypted(alice, "tpyo");
    const encrypted = await alice.crypto.encryptRoomEvent(roomId, "m.room.message", {
      msgtype: "m.text",
      body: "* typo",
      "m.new_content": { msgtype: "m.text", body: "typo" },
      "m.relates_to": { rel_type: "m.replace", event_id: eventId },
    });
    // The relation travels in the clear, so the server can aggregate edits.
    expect(encrypted.content["m.relates_to"]).toEqual({ rel_type: "m.replace", event_id: eventId });
    const { event_id } = await sendEvent(
      alice.http,
      roomId,
      "m.room.encrypted",
      `edit${++txn}`,
      encrypted.content,
    );
    const edit = await syncUntil(bob, findEvent(event_id));
    expect(edit.content["m.relates_to"]).toEqual({ rel_type: "m.replace", event_id: eventId });
    expect(edit.content["m.new_content"]).toEqual({ msgtype: "m.text", body: "typo" });
  });

  it("a new device of bob cannot read an earlier message: an expected, historical failure", async () => {
    const { eventId } = await sendEncrypted(alice, "before bob's second device");
    await new Promise((r) => setTimeout(r, 20)); // the new device is created strictly later
    const bob2 = await open(await login(server, bobAccount));
    const event = await syncUntil(bob2, findEvent(eventId));
    expect(event.type).toBe("m.room.message");
    expect(event.content["msgtype"]).toBe("m.bad.encrypted");
    expect(event.content["body"]).toMatch(/^\*\* Unable to decrypt: .+ \*\*$/);
    const failure = decryptionInfoOf(event)?.failure;
    expect(failure).toMatchObject({ code: "historical_message", expected: true });
    expect(bob2.crypto.pendingDecryptions).toBeGreaterThan(0);

    // A late key: bob's first device hands its keys over; the waiting event decrypts in place.
    const updates: DecryptedUpdate[] = [];
    bob2.crypto.onEventDecrypted((u) => updates.push(u));
    const imported = await bob2.crypto.importRoomKeys(await bob.crypto.exportRoomKeys());
    expect(imported).toBeGreaterThan(0);
    await expect.poll(() => updates.find((u) => u.eventId === eventId), { timeout: 5000 }).toBeDefined();
    const update = updates.find((u) => u.eventId === eventId);
    expect(update?.roomId).toBe(roomId);
    expect(update?.event.content["body"]).toBe("before bob's second device");
    expect(decryptionInfoOf(update!.event)?.failure).toBeUndefined();

    // Messages after the new device exists reach it directly.
    await alice.sync(); // alice learns of bob's new device through device_lists
    const later = await sendEncrypted(alice, "after");
    const seen = await syncUntil(bob2, findEvent(later.eventId));
    expect(seen.content["body"]).toBe("after");
  });

  it("an event that arrives before its key is a real failure, then decrypts in place when the key comes", async () => {
    const updates: DecryptedUpdate[] = [];
    const stop = bob.crypto.onEventDecrypted((u) => updates.push(u));
    expect(await alice.crypto.rotateRoomKey(roomId)).toBe(true); // a new session, so a new key must travel
    const { eventId, sessionId } = await sendEncrypted(alice, "key comes late");
    bob.deferToDevice = true;
    const early = await syncUntil(bob, findEvent(eventId));
    expect(early.content["body"]).toBe(
      "** Unable to decrypt: The sender's device has not sent us the keys for this message. **",
    );
    expect(decryptionInfoOf(early)).toMatchObject({
      sessionId,
      failure: { code: "missing_room_key", expected: false },
    });
    expect(updates).toEqual([]);
    bob.deferToDevice = false;
    await bob.sync(); // the held m.room_key arrives
    await expect.poll(() => updates.length, { timeout: 5000 }).toBe(1);
    expect(updates[0]).toMatchObject({
      roomId,
      eventId,
      event: { type: "m.room.message", content: { body: "key comes late" } },
    });
    expect(bob.crypto.pendingDecryptions).toBe(0);
    stop();
  });

  it("rotates the session after rotation_period_msgs messages", async () => {
    const room = String(
      (
        await call(server, aliceAccount, "POST", "/createRoom", {
          invite: [bobAccount.userId],
          initial_state: [
            {
              type: "m.room.encryption",
              state_key: "",
              content: { algorithm: "m.megolm.v1.aes-sha2", rotation_period_msgs: 2 },
            },
          ],
        })
      )["room_id"],
    );
    await call(server, bobAccount, "POST", `/join/${encodeURIComponent(room)}`, {});
    await alice.sync();
    const sessions: unknown[] = [];
    for (let i = 0; i < 5; i += 1) sessions.push((await sendEncrypted(alice, `m${i}`, room)).sessionId);
    expect(sessions[0]).toBe(sessions[1]);
    expect(sessions[2]).not.toBe(sessions[1]);
    expect(sessions[2]).toBe(sessions[3]);
    expect(sessions[4]).not.toBe(sessions[3]);
    const bodies: unknown[] = [];
    for (let i = 0; i < 5 && bodies.length < 5; i += 1) {
      const batch = await bob.sync();
      for (const e of timelineOf(batch, room))
        if (e.type === "m.room.message") bodies.push(e.content["body"]);
    }
    expect(bodies).toEqual(["m0", "m1", "m2", "m3", "m4"]);
  });
});
