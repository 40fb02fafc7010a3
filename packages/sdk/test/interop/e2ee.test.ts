/**
 * Interop: end-to-end encryption on every server of the fixture, between
 * two Lattice clients and between Lattice and matrix-js-sdk 43 (its own
 * Rust crypto). Each side sends into a megolm room and the other decrypts:
 * device keys, one-time key claims, to-device room keys and the megolm
 * events all travel through the real server.
 */
import type { MatrixClient, MatrixEvent } from "matrix-js-sdk";
import { afterAll, expect, it } from "vitest";
import { createRoom } from "../../src/api/rooms";
import type { Client } from "../../src/client";
import { encryptedRoom, waitFor, waitForMembership } from "../client/helpers";
import { startJsClient } from "../crypto/interop/jssdk-client";
import { clientsOf, SYNC_WAIT_MS } from "./clients";
import { describeEachServer } from "./servers";

const MEGOLM = { type: "m.room.encryption", state_key: "", content: { algorithm: "m.megolm.v1.aes-sha2" } };

/** Sends a text message through the client's queue (encrypted in an encrypted room); its event id. */
async function send(client: Client, roomId: string, body: string): Promise<string> {
  const echo = client.sendQueue.send(roomId, "m.room.message", { msgtype: "m.text", body });
  const settled = await client.sendQueue.whenSettled(echo.txnId);
  return settled?.eventId ?? (await waitFor(() => client.sendQueue.get(echo.txnId)?.eventId, "event id"));
}

/** Waits until `client` holds `eventId` decrypted as a message; its body. */
async function decryptedBody(client: Client, roomId: string, eventId: string): Promise<unknown> {
  const event = await waitFor(
    () => {
      const e = client.rooms.find(roomId)?.findEvent(eventId);
      return e?.type === "m.room.message" ? e : undefined;
    },
    () =>
      `${eventId} decrypted by ${client.userId} (now ${client.rooms.find(roomId)?.findEvent(eventId)?.type})`,
    SYNC_WAIT_MS,
  );
  return event.content["body"];
}

/** Resolves with the js-sdk's decrypted event whose body is `body`. */
function jsReceives(js: MatrixClient, roomId: string, body: string): Promise<MatrixEvent> {
  return new Promise((resolve) => {
    const check = (event: MatrixEvent): void => {
      if (
        event.getRoomId() === roomId &&
        !event.isDecryptionFailure() &&
        event.getContent()["body"] === body
      ) {
        js.off("Event.decrypted" as never, check as never);
        resolve(event);
      }
    };
    js.on("Event.decrypted" as never, check as never);
  });
}

describeEachServer("end-to-end encryption", (ctx) => {
  const start = clientsOf(ctx);
  const js: MatrixClient[] = [];
  afterAll(() => {
    for (const client of js.splice(0)) client.stopClient();
  });

  it("two Lattice clients exchange encrypted messages both ways", async () => {
    const [alice, bob] = await Promise.all([
      start("alice", { crypto: true }),
      start("bob", { crypto: true }),
    ]);
    const roomId = await encryptedRoom(alice, bob);
    const fromAlice = await send(alice, roomId, "hello bob, privately");
    expect(await decryptedBody(bob, roomId, fromAlice)).toBe("hello bob, privately");
    const fromBob = await send(bob, roomId, "hello alice, privately");
    expect(await decryptedBody(alice, roomId, fromBob)).toBe("hello alice, privately");
    // What the server stored is ciphertext.
    expect(alice.rooms.get(roomId).getSnapshot().isEncrypted).toBe(true);
  });

  it("Lattice and matrix-js-sdk exchange encrypted messages both ways", async () => {
    const alice = await start("alice", { crypto: true });
    const bobUser = await ctx.user("jsbob");
    const bob = await startJsClient(ctx.server, bobUser);
    js.push(bob);
    const { room_id: roomId } = await createRoom(alice.http, {
      preset: "private_chat",
      invite: [bobUser.userId],
      initial_state: [MEGOLM],
    });
    await bob.joinRoom(roomId);
    await waitForMembership(alice, roomId, bobUser.userId, "join", SYNC_WAIT_MS);
    // Lattice encrypts to the js-sdk's device only once the js-sdk has uploaded its keys.
    await expect
      .poll(async () => (await alice.crypto.getUserDevices(bobUser.userId)).length, { timeout: SYNC_WAIT_MS })
      .toBe(1);

    const received = jsReceives(bob, roomId, "hello from Lattice");
    const sentId = await send(alice, roomId, "hello from Lattice");
    const event = await received;
    expect(event.getId()).toBe(sentId);
    expect(event.getWireType()).toBe("m.room.encrypted");
    expect(event.getSender()).toBe(alice.userId);

    const reply = await bob.sendTextMessage(roomId, "hello from js-sdk");
    expect(await decryptedBody(alice, roomId, reply.event_id)).toBe("hello from js-sdk");
  });
});
