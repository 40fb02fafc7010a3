/**
 * End-to-end encryption through createClient, over HTTP on the test
 * homeserver: alice and bob (crypto on by default) share an encrypted room;
 * a message, an edit, a reaction and an encrypted attachment go through the
 * send queue ("encrypting", then sent) and arrive decrypted in the other
 * client's room model; Olm-encrypted to-device messages go both ways through
 * the persistent to-device queue. Carol (crypto: false) gets the spec's two
 * messages and still talks in an unencrypted room.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { api, CryptoError } from "../../src";
import type { Client, EventStatus } from "../../src";
import type { ClientEventWithoutRoomId, ToDeviceEvent } from "../../src/api/types/events";
import { startClient, waitFor, waitForMembership } from "./helpers";

let server: TestServerHandle;
let alice: Client;
let bob: Client;
let carol: Client;
let roomId: string;

/** The default protocol choice: the test server advertises sliding sync, so that is what runs. */
const SYNC = { sync: { pollTimeoutMs: 1_000, syncMode: "auto" as const } };

const received = new Map<string, ToDeviceEvent[]>();

function collectToDevice(client: Client): void {
  const list: ToDeviceEvent[] = [];
  received.set(client.userId, list);
  client.onToDevice((events) => list.push(...events));
}

function eventIn(client: Client, eventId: string): ClientEventWithoutRoomId | undefined {
  return client.rooms.find(roomId)?.recentEvents.find((e) => e.event_id === eventId);
}

/** Sends through alice's queue, recording every status; resolves with the event id once echoed. */
async function sendAsAlice(type: string, content: Record<string, unknown>): Promise<string> {
  const statuses: Array<EventStatus | null> = [];
  const echo = alice.sendQueue.send(roomId, type, content);
  const stop = alice.sendQueue.room(roomId).subscribe(() => {
    const now = alice.sendQueue.get(echo.txnId)?.status ?? null;
    if (statuses.at(-1) !== now) statuses.push(now);
  });
  try {
    const settled = await alice.sendQueue.whenSettled(echo.txnId);
    const eventId = settled?.eventId ?? (await waitFor(() => alice.sendQueue.get(echo.txnId)?.eventId, "id"));
    expect(statuses).toContain("encrypting");
    return eventId;
  } finally {
    stop();
  }
}

beforeAll(async () => {
  server = await startTestServer({ seed: "client-crypto" });
  [alice, bob, carol] = await Promise.all([
    startClient(server, "alice", SYNC),
    startClient(server, "bob", SYNC),
    startClient(server, "carol", { ...SYNC, crypto: false }),
  ]);
  for (const c of [alice, bob]) collectToDevice(c);
  roomId = (
    await api.rooms.createRoom(alice.http, {
      preset: "private_chat",
      name: "Secret",
      invite: [bob.userId, carol.userId],
      initial_state: [
        { type: "m.room.encryption", state_key: "", content: { algorithm: "m.megolm.v1.aes-sha2" } },
      ],
    })
  ).room_id;
  await waitFor(() => bob.rooms.find(roomId), "bob's invite");
  await waitFor(() => carol.rooms.find(roomId), "carol's invite");
  await bob.moderation.join(roomId);
  await carol.moderation.join(roomId);
  await waitForMembership(alice, roomId, bob.userId, "join");
  await waitForMembership(alice, roomId, carol.userId, "join");
  await waitFor(() => bob.rooms.find(roomId)?.getSnapshot().isEncrypted, "bob sees encryption");
}, 60_000);

afterAll(async () => {
  await Promise.all([alice, bob, carol].map((c) => c?.dispose()));
  await server?.stop();
});

describe("crypto on", () => {
  it("loads the engine for the encrypted room and lists the other user's device", async () => {
    expect(alice.crypto.enabled).toBe(true);
    await waitFor(() => alice.crypto.loaded && bob.crypto.loaded, "engines loaded");
    const devices = await alice.crypto.getUserDevices(bob.userId, 5);
    expect(devices.map((d) => d.deviceId)).toContain(bob.deviceId);
    expect(devices.find((d) => d.deviceId === bob.deviceId)?.verification).toBe(0);
  });

  it("sends a message, an edit and a reaction that bob reads decrypted", async () => {
    const original = await sendAsAlice("m.room.message", { msgtype: "m.text", body: "hello bob" });
    const seen = await waitFor(() => eventIn(bob, original), "bob gets the message");
    expect(seen.type).toBe("m.room.message");
    expect(seen.content["body"]).toBe("hello bob");

    const edit = await sendAsAlice("m.room.message", {
      msgtype: "m.text",
      body: "* hello again",
      "m.new_content": { msgtype: "m.text", body: "hello again" },
      "m.relates_to": { rel_type: "m.replace", event_id: original },
    });
    const editSeen = await waitFor(() => eventIn(bob, edit), "bob gets the edit");
    expect(editSeen.content["m.new_content"]).toEqual({ msgtype: "m.text", body: "hello again" });

    const reaction = bob.sendQueue.react(roomId, original, "👍");
    const settled = await bob.sendQueue.whenSettled(reaction.txnId);
    const reactionId = settled?.eventId ?? reaction.eventId;
    const reactionSeen = await waitFor(
      () =>
        alice.rooms
          .find(roomId)
          ?.recentEvents.find(
            (e) => e.type === "m.reaction" && (reactionId === undefined || e.event_id === reactionId),
          ),
      "alice gets the reaction",
    );
    expect(reactionSeen.content["m.relates_to"]).toEqual({
      rel_type: "m.annotation",
      event_id: original,
      key: "👍",
    });
    expect(reactionSeen.sender).toBe(bob.userId);
  });

  it("uploads an encrypted attachment that bob downloads and decrypts", async () => {
    const bytes = new TextEncoder().encode("a secret file ".repeat(100));
    const file = await alice.crypto.uploadAttachment(bytes);
    expect(file.url).toMatch(/^mxc:\/\//);
    // The server holds ciphertext only.
    const raw = (await api.media.downloadContent(alice.http, file.url)).data;
    expect(Buffer.from(raw).equals(Buffer.from(bytes))).toBe(false);
    const id = await sendAsAlice("m.room.message", { msgtype: "m.file", body: "secret.txt", file });
    const seen = await waitFor(() => eventIn(bob, id), "bob gets the file event");
    const plain = await bob.crypto.downloadAttachment(seen.content["file"]);
    expect(new TextDecoder().decode(plain)).toBe("a secret file ".repeat(100));
  });

  it("sends encrypted to-device messages both ways", async () => {
    const toBob = await alice.crypto.sendToDevice(
      "org.lattice.ping",
      [{ userId: bob.userId, deviceId: bob.deviceId ?? "" }],
      {
        n: 1,
      },
    );
    expect(toBob.sent).toEqual([{ userId: bob.userId, deviceId: bob.deviceId }]);
    const atBob = await waitFor(
      () => received.get(bob.userId)?.find((e) => e.type === "org.lattice.ping"),
      "bob gets the ping",
    );
    expect(atBob).toMatchObject({ sender: alice.userId, content: { n: 1 } });

    const toAlice = await bob.crypto.sendToDevice(
      "org.lattice.pong",
      [{ userId: alice.userId, deviceId: alice.deviceId ?? "" }],
      { n: 2 },
    );
    expect(toAlice.skipped).toEqual([]);
    const atAlice = await waitFor(
      () => received.get(alice.userId)?.find((e) => e.type === "org.lattice.pong"),
      "alice gets the pong",
    );
    expect(atAlice).toMatchObject({ sender: bob.userId, content: { n: 2 } });
    // Nothing travelled in the clear.
    expect(received.get(bob.userId)?.some((e) => e.type === "m.room.encrypted")).toBe(false);
  });

  it("blocks and unblocks a device", async () => {
    expect(await alice.crypto.blockDevice(bob.userId, bob.deviceId ?? "")).toBe(true);
    let devices = await alice.crypto.getUserDevices(bob.userId);
    expect(devices.find((d) => d.deviceId === bob.deviceId)?.verification).toBe(-1);
    const skipped = await alice.crypto.sendToDevice(
      "org.lattice.ping",
      [{ userId: bob.userId, deviceId: bob.deviceId ?? "" }],
      {},
    );
    expect(skipped.sent).toEqual([]);
    expect(await alice.crypto.unblockDevice(bob.userId, bob.deviceId ?? "")).toBe(true);
    devices = await alice.crypto.getUserDevices(bob.userId);
    expect(devices.find((d) => d.deviceId === bob.deviceId)?.verification).toBe(0);
  });
});

describe("crypto off", () => {
  it("refuses to send into the encrypted room with the spec's message", async () => {
    expect(carol.crypto.enabled).toBe(false);
    await waitFor(() => carol.rooms.find(roomId)?.getSnapshot().isEncrypted, "carol sees encryption");
    const echo = carol.sendQueue.send(roomId, "m.room.message", { msgtype: "m.text", body: "plain?" });
    const settled = await carol.sendQueue.whenSettled(echo.txnId);
    expect(settled?.status).toBe("not_sent");
    expect(settled?.failure?.message).toBe(
      "This room is configured to use encryption, but your client does not support encryption.",
    );
    expect(settled?.failure?.kind).toBe("encryption_unsupported");
  });

  it("refuses encrypted to-device with the spec's message", async () => {
    const attempt = carol.crypto.sendToDevice(
      "org.lattice.ping",
      [{ userId: alice.userId, deviceId: "X" }],
      {},
    );
    await expect(attempt).rejects.toBeInstanceOf(CryptoError);
    await expect(attempt).rejects.toThrow(
      "Cannot encrypt to device event, your client does not support encryption.",
    );
    expect(carol.crypto.loaded).toBe(false);
  });

  it("keeps unencrypted rooms working", async () => {
    const plain = (await api.rooms.createRoom(carol.http, { preset: "private_chat", name: "Plain" })).room_id;
    await waitFor(() => carol.rooms.find(plain), "carol's plain room");
    const echo = carol.sendQueue.send(plain, "m.room.message", { msgtype: "m.text", body: "in the clear" });
    await carol.sendQueue.whenSettled(echo.txnId);
    await waitFor(
      () => carol.rooms.find(plain)?.recentEvents.find((e) => e.content["body"] === "in the clear"),
      "carol's own message",
    );
  });
});
