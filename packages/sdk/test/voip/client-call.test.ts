/**
 * A 1:1 call through the real test homeserver: two SDK clients with fake
 * media platforms on one fake network; alice places a video call in a room
 * of two, bob's client rings from sync, he answers, both connect, alice
 * hangs up and bob's call ends with her reason. The m.call.* events travel
 * as room events through the server, and the TURN credentials of the
 * server's voip/turnServer reach the peer connections.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { api } from "../../src";
import type { Client } from "../../src";
import type { Call } from "../../src/voip/call/Call";
import { startClient, waitFor, waitForMembership, svc } from "../client/helpers";
import { FakeNetwork } from "./fakes";
import type { FakePlatform } from "./fakes";

let server: TestServerHandle;
let alice: Client;
let bob: Client;
let roomId: string;
const network = new FakeNetwork();
const alicePlatform: FakePlatform = network.platform();
const bobPlatform: FakePlatform = network.platform();

beforeAll(async () => {
  server = await startTestServer({
    seed: "voip-client-call",
    turnUris: ["turn:turn.example.org:3478?transport=udp"],
    turnSecret: "s3cret",
  });
  [alice, bob] = await Promise.all([
    startClient(server, "alice", { crypto: false, voip: { platform: alicePlatform } }),
    startClient(server, "bob", { crypto: false, voip: { platform: bobPlatform } }),
  ]);
  roomId = (
    await api.rooms.createRoom(alice.http, { preset: "private_chat", invite: [bob.userId], is_direct: true })
  ).room_id;
  await waitFor(() => bob.rooms.find(roomId), "bob's invite");
  await bob.moderation.join(roomId);
  await waitForMembership(alice, roomId, bob.userId, "join");
});

afterAll(async () => {
  await Promise.all([alice.dispose(), bob.dispose()]);
  await server.stop();
});

it("places, rings, answers, connects and hangs up a call through the server", async () => {
  await waitFor(
    () => svc(alice).voip.turn.current.getSnapshot().servers.length > 0,
    "alice's TURN credentials",
  );
  const incoming: Call[] = [];
  svc(bob).voip.onIncoming((call) => incoming.push(call));
  const outbound = await svc(alice).voip.placeCall(roomId, { video: true });
  expect(outbound.state.getSnapshot()).toBe("invite_sent");
  const inbound = await waitFor(() => incoming[0], "bob's ringing call", 15_000);
  expect(inbound.callId).toBe(outbound.callId);
  expect(inbound.state.getSnapshot()).toBe("ringing");
  expect(svc(bob).voip.calls.getSnapshot()).toEqual([inbound]);
  await inbound.answer({ audio: true, video: true });
  await waitFor(() => outbound.state.getSnapshot() === "connected", "alice connected", 15_000);
  await waitFor(() => inbound.state.getSnapshot() === "connected", "bob connected", 15_000);
  // TURN credentials from voip/turnServer went into alice's peer connection.
  const urls = alicePlatform.peer.config.iceServers.flatMap((s) => s.urls);
  expect(urls).toEqual(["turn:turn.example.org:3478?transport=udp"]);
  // Each side sees the other's camera.
  expect(inbound.media.remoteFeed()?.stream.getVideoTracks()).toHaveLength(1);
  await outbound.hangup();
  await waitFor(() => inbound.state.getSnapshot() === "ended", "bob's call ended", 15_000);
  expect(inbound.hangupReason).toBe("user_hangup");
  expect(inbound.hangupParty).toBe("remote");
  expect(svc(alice).voip.calls.getSnapshot()).toEqual([]);
  expect(svc(bob).voip.calls.getSnapshot()).toEqual([]);
  expect([...alicePlatform.mediaDevices.live(), ...bobPlatform.mediaDevices.live()]).toEqual([]);
  // The call events are in the room's timeline on the server.
  const types = (await api.timeline.messages(alice.http, roomId, { dir: "b", limit: 50 })).chunk.map(
    (e) => e.type,
  );
  for (const type of [
    "m.call.invite",
    "m.call.answer",
    "m.call.select_answer",
    "m.call.candidates",
    "m.call.hangup",
  ])
    expect(types).toContain(type);
});

it("refuses a 1:1 call in a room that is not a room of two", async () => {
  const solo = (await api.rooms.createRoom(alice.http, { preset: "private_chat" })).room_id;
  await waitFor(() => alice.rooms.find(solo), "alice's solo room");
  await expect(svc(alice).voip.placeCall(solo)).rejects.toThrow(
    "A 1:1 call needs a room with one other member",
  );
});
