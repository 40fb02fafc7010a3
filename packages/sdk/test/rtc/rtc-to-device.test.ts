/**
 * MatrixRTC media keys over Olm-encrypted to-device messages, two clients
 * with crypto on over HTTP on the test homeserver: each gets the other's
 * key through `io.element.call.encryption_keys` to-device, and neither
 * switches to the room transport.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { api } from "../../src";
import type { Client } from "../../src";
import { startClient, waitFor, waitForMembership, svc } from "../client/helpers";

let server: TestServerHandle;
let alice: Client;
let bob: Client;
let roomId: string;

beforeAll(async () => {
  server = await startTestServer({ seed: "rtc-to-device" });
  [alice, bob] = await Promise.all([startClient(server, "alice"), startClient(server, "bob")]);
  roomId = (
    await api.rooms.createRoom(alice.http, {
      preset: "public_chat",
      name: "Call",
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

it("exchanges keys by Olm-encrypted to-device messages", async () => {
  await svc(alice).rtc.join(roomId);
  await svc(bob).rtc.join(roomId);
  for (const [me, other] of [
    [alice, bob],
    [bob, alice],
  ] as const) {
    const participant = await waitFor(
      () =>
        svc(me)
          .rtc.participants(roomId)
          .getSnapshot()
          .find((p) => p.userId === other.userId),
      `${other.userId} as a participant of ${me.userId}`,
    );
    const key = await waitFor(
      () => participant.keys.getSnapshot().keys.get(0),
      `${other.userId}'s key 0`,
      20_000,
    );
    expect(key).toEqual(svc(other).rtc.ownKey(roomId).getSnapshot()?.key);
    // Bound to the device whose Olm session sent it.
    expect(participant.deviceId).toBe(other.deviceId);
  }
  for (const c of [alice, bob])
    expect(svc(c).rtc.joined.getSnapshot().get(roomId)?.parts.transports.mode.getSnapshot()).toBe(
      "to-device",
    );
}, 60_000);
