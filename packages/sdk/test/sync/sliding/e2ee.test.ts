/**
 * End-to-end encryption with lazy-loaded members, in both sync protocols,
 * through createClient over HTTP on the test homeserver: bob joins an
 * encrypted room whose recent history is all carol's (so alice's membership
 * is in no window bob syncs), then alice writes. Bob must read her message
 * in the clear, and his to-device messages must reach her encrypted: the
 * engine tracks every member of the encrypted room (loaded out of band),
 * so it knows alice's device before her Olm message arrives.
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

  afterAll(async () => {
    await Promise.all([alice, bob, carol].map((c) => c?.dispose() ?? Promise.resolve()));
  });

  it("bob, arriving after 40 of carol's messages, gets alice's Olm ping and reads her message", async () => {
    [alice, carol] = await Promise.all([
      startClient(server, `alice-${mode}`, sync),
      startClient(server, `carol-${mode}`, { ...sync, crypto: false }),
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
  });
});
