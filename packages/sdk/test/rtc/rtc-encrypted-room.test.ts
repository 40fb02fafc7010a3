/**
 * Call signalling in an encrypted room, two clients with crypto on over
 * HTTP on the test homeserver: key events (room transport), rings and
 * declines are sent encrypted, reach the other side, and never show as a
 * local echo in the sender's timeline (the send queue's room list).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { api } from "../../src";
import type { Client } from "../../src";
import { startClient, waitFor, waitForMembership, svc } from "../client/helpers";

const SIGNALLING = [
  "io.element.call.encryption_keys",
  "org.matrix.msc4075.rtc.notification",
  "org.matrix.msc4075.call.notify",
  "org.matrix.msc4310.rtc.decline",
];

let server: TestServerHandle;
let alice: Client;
let bob: Client;
let roomId: string;

beforeAll(async () => {
  server = await startTestServer({ seed: "rtc-encrypted-room" });
  [alice, bob] = await Promise.all([startClient(server, "alice"), startClient(server, "bob")]);
  roomId = (
    await api.rooms.createRoom(alice.http, {
      preset: "public_chat",
      name: "Encrypted call",
      initial_state: [
        { type: "m.room.encryption", state_key: "", content: { algorithm: "m.megolm.v1.aes-sha2" } },
      ],
      power_level_content_override: { events: { "org.matrix.msc3401.call.member": 0 } },
    })
  ).room_id;
  await waitFor(() => alice.rooms.find(roomId), "alice's room");
  await bob.moderation.join(roomId);
  await waitForMembership(alice, roomId, bob.userId, "join");
}, 60_000);

afterAll(async () => {
  await alice?.dispose();
  await bob?.dispose();
  await server?.stop();
});

it("sends keys, rings and declines encrypted without local echoes", async () => {
  const echoed: string[] = [];
  for (const c of [alice, bob])
    c.sendQueue.room(roomId).subscribe((list) => echoed.push(...list.map((e) => e.type)));
  await svc(alice).rtc.join(roomId, { keyTransport: "room" });
  const ringId = await svc(alice).rtc.ring(roomId, { userIds: [bob.userId] });
  const ring = await waitFor(
    () =>
      svc(bob)
        .rtc.ringsOf(roomId)
        .getSnapshot()
        .get(ringId ?? ""),
    "bob's ring",
  );
  expect(ring.ring.sender).toBe(alice.userId);
  await svc(bob).rtc.decline(roomId, ringId ?? "");
  await waitFor(
    () =>
      svc(alice)
        .rtc.ringsOf(roomId)
        .getSnapshot()
        .get(ringId ?? "")?.state === "declined",
    "alice sees the decline",
  );
  await svc(bob).rtc.join(roomId, { keyTransport: "room" });
  const aliceAtBob = await waitFor(
    () =>
      svc(bob)
        .rtc.participants(roomId)
        .getSnapshot()
        .find((p) => p.userId === alice.userId),
    "alice as bob's participant",
  );
  const key = await waitFor(() => aliceAtBob.keys.getSnapshot().keys.get(0), "alice's key 0", 20_000);
  expect(key).toEqual(svc(alice).rtc.ownKey(roomId).getSnapshot()?.key);
  // The key went encrypted: the room shows it to the others only after decryption.
  expect(echoed.filter((t) => SIGNALLING.includes(t))).toEqual([]);
}, 60_000);
