/**
 * A mesh group call through the test homeserver: three SDK clients with
 * fake media platforms. Alice starts the call (its state event), bob and
 * carol find it from room state, all three enter (member state events),
 * every pair connects over to-device signalling, and when carol leaves the
 * others' calls to her end.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { api } from "../../src";
import type { Client } from "../../src";
import type { GroupCall } from "../../src/voip/group/GroupCall";
import { startClient, waitFor, waitForMembership, svc } from "../client/helpers";
import { FakeNetwork } from "./fakes";

let server: TestServerHandle;
let clients: Client[];
let roomId: string;
const network = new FakeNetwork();

beforeAll(async () => {
  server = await startTestServer({ seed: "voip-group-call" });
  clients = await Promise.all(
    ["alice", "bob", "carol"].map((name) =>
      startClient(server, name, { crypto: false, voip: { platform: network.platform() } }),
    ),
  );
  const [alice, ...others] = clients as [Client, Client, Client];
  roomId = (
    await api.rooms.createRoom(alice.http, {
      preset: "private_chat",
      invite: others.map((c) => c.userId),
      // Members may announce themselves in the call (as Element does when it starts one).
      power_level_content_override: { events: { "org.matrix.msc3401.call.member": 0 } },
    })
  ).room_id;
  for (const c of others) {
    await waitFor(() => c.rooms.find(roomId), `${c.userId}'s invite`);
    await c.moderation.join(roomId);
  }
  // With lazy-loaded members, the others learn each member's join from the call events they send.
  for (const c of others) await waitForMembership(alice, roomId, c.userId, "join");
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await server.stop();
});

const connectedPeers = (g: GroupCall): number =>
  [...g.calls.getSnapshot().values()].filter((c) => c.state.getSnapshot() === "connected").length;

it("connects every pair of three members, and drops the calls to one who leaves", async () => {
  const [alice, bob, carol] = clients as [Client, Client, Client];
  const started = await svc(alice).voip.createGroupCall(roomId, { type: "m.video", intent: "m.room" });
  const joined = [started];
  for (const c of [bob, carol])
    joined.push(
      await waitFor(() => svc(c).voip.groupCall(roomId), `${c.userId} sees the group call`, 15_000),
    );
  expect(joined.map((g) => g.groupCallId)).toEqual([
    started.groupCallId,
    started.groupCallId,
    started.groupCallId,
  ]);
  await Promise.all(joined.map((g) => g.enter()));
  for (const [i, g] of joined.entries())
    await waitFor(() => connectedPeers(g) === 2, `${clients[i]?.userId} connected to both others`, 45_000);
  const [aliceCall, bobCall, carolCall] = joined as [GroupCall, GroupCall, GroupCall];
  await carolCall.leave();
  await waitFor(() => aliceCall.calls.getSnapshot().size === 1, "alice's call to carol ended", 15_000);
  await waitFor(() => bobCall.calls.getSnapshot().size === 1, "bob's call to carol ended", 15_000);
  expect(connectedPeers(aliceCall)).toBe(1);
  // Her member state no longer lists her device.
  await waitFor(
    () =>
      aliceCall.participants
        .getSnapshot()
        .map((p) => p.userId)
        .join() === bob.userId,
    "carol gone from alice's participants",
    15_000,
  );
}, 90_000);
