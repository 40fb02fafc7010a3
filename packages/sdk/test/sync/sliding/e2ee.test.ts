/**
 * End-to-end encryption with lazy-loaded members, in both sync protocols,
 * through createClient over HTTP on the test homeserver: bob joins an
 * encrypted room whose recent history is all carol's (so alice's membership
 * is in no window bob syncs), then alice writes. Bob must read her message
 * in the clear, and her Olm-encrypted ping must decrypt: the engine queries
 * the keys of an Olm sender it does not know before decrypting. Then bob
 * writes and dave, who joined early and never spoke, must read it: the
 * encryptor loads the room's full member list before sharing the key.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { api } from "../../../src";
import type { Client } from "../../../src";
import type { ToDeviceEvent } from "../../../src/api/types/events";
import { startClient, waitFor } from "../../client/helpers";

let server: TestServerHandle;

beforeAll(async () => {
  server = await startTestServer({ seed: "sliding-e2ee" });
});

afterAll(async () => {
  await server?.stop();
});

const MODES = ["v2", "sliding"] as const;

describe.each(MODES)("an encrypted room with lazy-loaded members (%s)", (mode) => {
  const sync = { sync: { pollTimeoutMs: 1_000, syncMode: mode } };
  let alice: Client;
  let bob: Client | undefined;
  let carol: Client;
  let dave: Client;

  afterAll(async () => {
    await Promise.all([alice, bob, carol, dave].map((c) => c?.dispose() ?? Promise.resolve()));
  });

  it("bob, arriving after 40 of carol's messages, gets alice's Olm ping and reads her message; silent dave reads bob's", async () => {
    [alice, carol, dave] = await Promise.all([
      startClient(server, `alice-${mode}`, sync),
      startClient(server, `carol-${mode}`, { ...sync, crypto: false }),
      startClient(server, `dave-${mode}`, sync),
    ]);
    const roomId = (
      await api.rooms.createRoom(alice.http, {
        preset: "public_chat",
        name: "Busy secret",
        initial_state: [
          { type: "m.room.encryption", state_key: "", content: { algorithm: "m.megolm.v1.aes-sha2" } },
        ],
      })
    ).room_id;
    await api.membership.joinRoom(carol.http, roomId);
    // Dave joins early and never speaks: no window bob syncs names him.
    await api.membership.joinRoom(dave.http, roomId);
    await waitFor(() => dave.crypto.loaded, "dave's engine");
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        api.send.sendEvent(carol.http, roomId, "m.room.message", `c${i}`, {
          msgtype: "m.text",
          body: `c${i}`,
        }),
      ),
    );
    const bobClient = await startClient(server, `bob-${mode}`, sync);
    bob = bobClient;
    const pings: ToDeviceEvent[] = [];
    bobClient.onToDevice((events) => pings.push(...events.filter((e) => e.type === "org.lattice.ping")));
    await api.membership.joinRoom(bobClient.http, roomId);
    await waitFor(() => bobClient.rooms.find(roomId)?.getSnapshot().isEncrypted, "bob sees encryption");
    await waitFor(
      () => alice.rooms.find(roomId)?.getSnapshot().state.membershipOf(bobClient.userId) === "join",
      "alice sees bob",
    );

    // Bob's engine loads with the encrypted room and uploads his keys; alice must see them first.
    await waitFor(() => bobClient.crypto.loaded, "bob's engine");
    await expect
      .poll(async () => (await alice.crypto.getUserDevices(bobClient.userId, 2)).map((d) => d.deviceId), {
        timeout: 10_000,
      })
      .toContain(bobClient.deviceId);
    const ping = await alice.crypto.sendToDevice(
      "org.lattice.ping",
      [{ userId: bobClient.userId, deviceId: bobClient.deviceId ?? "" }],
      { n: 1 },
    );
    expect(ping.sent.length).toBe(1);
    await waitFor(() => pings.length > 0, "bob gets alice's ping").catch(() => undefined);
    expect(pings).toMatchObject([{ sender: alice.userId, content: { n: 1 } }]);
    const echo = alice.sendQueue.send(roomId, "m.room.message", { msgtype: "m.text", body: "hi bob" });
    const settled = await alice.sendQueue.whenSettled(echo.txnId);
    const eventId = settled?.eventId ?? "";
    expect(eventId).not.toBe("");
    const bodyAtBob = (): unknown =>
      bobClient.rooms.find(roomId)?.recentEvents.find((e) => e.event_id === eventId)?.content["body"];
    await waitFor(() => bodyAtBob() !== undefined, "bob gets alice's message");
    await waitFor(() => bodyAtBob() === "hi bob", "bob decrypts alice's message").catch(() => undefined);
    expect(bodyAtBob()).toBe("hi bob");

    // Bob's room key must reach silent dave too: the encryptor loads the full member list first.
    await expect
      .poll(async () => (await alice.crypto.getUserDevices(dave.userId, 2)).map((d) => d.deviceId), {
        timeout: 10_000,
      })
      .toContain(dave.deviceId);
    const fromBob = bobClient.sendQueue.send(roomId, "m.room.message", { msgtype: "m.text", body: "hi all" });
    const bobEventId = (await bobClient.sendQueue.whenSettled(fromBob.txnId))?.eventId ?? "";
    const bodyAtDave = (): unknown =>
      dave.rooms.find(roomId)?.recentEvents.find((e) => e.event_id === bobEventId)?.content["body"];
    await waitFor(() => bodyAtDave() === "hi all", "dave decrypts bob's message").catch(() => undefined);
    expect(bodyAtDave()).toBe("hi all");
  });
});
