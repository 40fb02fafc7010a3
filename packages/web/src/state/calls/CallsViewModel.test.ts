/**
 * CallsViewModel over two real SDK clients on the test homeserver with the
 * SDK's fake media platforms: alice's header button places a 1:1 call in
 * their room of two, bob's view model lists the incoming call with her
 * name and announces it (the desktop notification's hook), he accepts,
 * both active calls connect, he hangs up and both clear; a second call is
 * declined and alice's call ends.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { api } from "@lattice/sdk";
import type { Client } from "@lattice/sdk";
import { startClient, waitFor, waitForMembership } from "@lattice/sdk/test/client/helpers";
import { FakeNetwork } from "@lattice/sdk/test/voip/fakes";
import { CallSettings } from "./CallSettings";
import { CallsViewModel } from "./CallsViewModel";
import type { IncomingCallView } from "./CallsViewModel";

let server: TestServerHandle;
let alice: Client;
let bob: Client;
let roomId: string;
const network = new FakeNetwork();

beforeAll(async () => {
  server = await startTestServer({ seed: "web-calls-vm" });
  [alice, bob] = await Promise.all([
    startClient(server, "alice", { crypto: false, voip: { platform: network.platform() } }),
    startClient(server, "bob", { crypto: false, voip: { platform: network.platform() } }),
  ]);
  roomId = (await api.rooms.createRoom(alice.http, { preset: "private_chat", invite: [bob.userId] })).room_id;
  await waitFor(() => bob.rooms.find(roomId), "bob's invite");
  await bob.moderation.join(roomId);
  await waitForMembership(alice, roomId, bob.userId, "join");
});

afterAll(async () => {
  await Promise.all([alice.dispose(), bob.dispose()]);
  await server.stop();
});

it("places, rings with the caller's name, accepts, connects, hangs up; declines a second call", async () => {
  const announced: IncomingCallView[] = [];
  const opened: string[] = [];
  const host = {
    openRoom: (id: string) => opened.push(id),
    notify: (c: IncomingCallView) => announced.push(c),
  };
  const a = new CallsViewModel(alice, new CallSettings(undefined), undefined, host);
  const b = new CallsViewModel(bob, new CallSettings(undefined), undefined, host);
  // The SDK's call services load on first use (ADR 0038): the models follow them once they have.
  await Promise.all([a.ready, b.ready]);
  expect(a.supported).toBe(true);
  expect(a.kindFor(roomId)).toBe("one_to_one");

  await a.place(roomId, false);
  expect(a.error.getSnapshot()).toBeNull();
  expect(a.active.getSnapshot()?.status.getSnapshot()).toBe("calling");
  const ringing = await waitFor(() => b.incoming.getSnapshot()[0], "bob's incoming call", 15_000);
  expect(ringing).toMatchObject({ roomId, callerId: alice.userId, callerName: "alice", video: false });
  expect(announced).toEqual([ringing]);

  await b.accept(ringing.id, false);
  expect(b.incoming.getSnapshot()).toEqual([]);
  await waitFor(
    () => a.active.getSnapshot()?.status.getSnapshot() === "connected",
    "alice connected",
    15_000,
  );
  await waitFor(() => b.active.getSnapshot()?.status.getSnapshot() === "connected", "bob connected", 15_000);
  const bobsCall = b.active.getSnapshot();
  if (!bobsCall) throw new Error("no active call");
  expect(bobsCall.opponentUserId).toBe(alice.userId);

  a.returnToCall();
  expect(opened).toEqual([roomId]);

  await b.hangup(bobsCall);
  await waitFor(() => b.active.getSnapshot() === null, "bob's call cleared", 15_000);
  await waitFor(() => a.active.getSnapshot() === null, "alice's call cleared", 15_000);

  // A second call, declined: alice's call ends.
  await a.place(roomId, true);
  const second = await waitFor(() => b.incoming.getSnapshot()[0], "the second call", 15_000);
  expect(second.video).toBe(true);
  await b.decline(second.id);
  expect(b.incoming.getSnapshot()).toEqual([]);
  await waitFor(() => a.active.getSnapshot() === null, "alice's declined call cleared", 15_000);
  a.dispose();
  b.dispose();
}, 60_000);
