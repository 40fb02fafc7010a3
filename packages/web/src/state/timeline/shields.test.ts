/**
 * Message shields follow the sender's trust: over HTTP on the test
 * homeserver with real crypto, alice reads bob's encrypted message with
 * TimelineActions (unverified device), then verifies bob's identity by
 * cross-signing; the actions see the change (trustVersion) and the same
 * message's shield reads "verified" without reopening the room.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { encryptedRoom, startClient, waitFor } from "@lattice/sdk/test/client/helpers";
import type { Client, TimelineItem } from "../../sdk";
import { TimelineActions } from "./TimelineActions";

let server: TestServerHandle;
let alice: Client;
let bob: Client;
let roomId: string;

const V2 = { sync: { pollTimeoutMs: 1_000, syncMode: "auto" as const } };

beforeAll(async () => {
  server = await startTestServer({ seed: "web-shields" });
  [alice, bob] = await Promise.all([startClient(server, "alice", V2), startClient(server, "bob", V2)]);
  roomId = await encryptedRoom(alice, bob, { preset: "trusted_private_chat" });
  await waitFor(() => alice.crypto.loaded && bob.crypto.loaded, "engines loaded");
  await waitFor(async () => (await alice.crypto.getUserDevices(bob.userId, 5)).length > 0, "bob's device");
  await waitFor(async () => (await bob.crypto.getUserDevices(alice.userId, 5)).length > 0, "alice's device");
}, 60_000);

afterAll(async () => {
  await Promise.all([alice?.dispose(), bob?.dispose()]);
  await server?.stop();
});

it("reads a sender's shield again when their identity is verified", async () => {
  bob.sendQueue.send(roomId, "m.room.message", { msgtype: "m.text", body: "hello, shielded" });
  const room = alice.rooms.get(roomId);
  const window = room.openTimeline();
  await window.load();
  const items = (): readonly TimelineItem[] => window.items.getSnapshot();
  const message = await waitFor(
    () => items().find((i) => i.content["body"] === "hello, shielded"),
    "bob's decrypted message",
    20_000,
  );
  const actions = new TimelineActions({
    client: alice,
    room,
    find: (id) => items().find((i) => i.eventId === id),
    items,
  });
  try {
    expect(actions.mayHaveShield(message)).toBe(true);
    expect(await actions.shieldOf(message)).toBe("unverified");
    expect(actions.trustVersion.getSnapshot()).toBe(0);

    // Both publish cross-signing keys; alice signs bob's identity with her user-signing key.
    expect(await alice.crypto.crossSigning.bootstrap()).toEqual({ created: true });
    expect(await bob.crypto.crossSigning.bootstrap()).toEqual({ created: true });
    await waitFor(
      async () => (await alice.crypto.identityWarnings.trust(bob.userId)).hasIdentity,
      "bob's identity at alice",
      20_000,
    );
    await alice.crypto.identityWarnings.verifyUser(bob.userId);
    await waitFor(() => actions.trustVersion.getSnapshot() > 0, "a trust change for bob", 20_000);
    await waitFor(
      async () => (await actions.shieldOf(message)) === "verified",
      "the verified shield",
      20_000,
    );
  } finally {
    actions.dispose();
    window.close();
  }
}, 90_000);
