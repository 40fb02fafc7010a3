/**
 * A 1:1 call in an encrypted room of two through the test homeserver: the
 * m.call.* events go out Megolm-encrypted through the send queue, come back
 * decrypted by the sync's decrypt hook, and the call rings, connects and
 * ends as in a plain room. Bob declines a second call with m.call.reject.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { api } from "../../src";
import type { Client } from "../../src";
import type { Call } from "../../src/voip/call/Call";
import { encryptedRoom, startClient, waitFor, svc } from "../client/helpers";
import { FakeNetwork } from "./fakes";

let server: TestServerHandle;
let alice: Client;
let bob: Client;
let roomId: string;
const network = new FakeNetwork();

beforeAll(async () => {
  server = await startTestServer({ seed: "voip-encrypted-call" });
  [alice, bob] = await Promise.all([
    startClient(server, "alice", { voip: { platform: network.platform() } }),
    startClient(server, "bob", { voip: { platform: network.platform() } }),
  ]);
  roomId = await encryptedRoom(alice, bob, { is_direct: true });
}, 60_000);

afterAll(async () => {
  await Promise.all([alice.dispose(), bob.dispose()]);
  await server.stop();
});

it("rings, connects and hangs up with encrypted call events; a second call is rejected", async () => {
  const incoming: Call[] = [];
  svc(bob).voip.onIncoming((call) => incoming.push(call));
  const outbound = await svc(alice).voip.placeCall(roomId);
  const inbound = await waitFor(() => incoming[0], "bob's ringing call", 20_000);
  await inbound.answer({ audio: true, video: false });
  await waitFor(() => outbound.state.getSnapshot() === "connected", "alice connected", 20_000);
  await inbound.hangup();
  await waitFor(() => outbound.state.getSnapshot() === "ended", "alice's call ended", 20_000);
  expect(outbound.hangupParty).toBe("remote");
  // On the server the call events are m.room.encrypted.
  const types = (await api.timeline.messages(alice.http, roomId, { dir: "b", limit: 50 })).chunk.map(
    (e) => e.type,
  );
  expect(types).not.toContain("m.call.invite");
  expect(types).toContain("m.room.encrypted");

  const second = await svc(alice).voip.placeCall(roomId, { video: true });
  const ring = await waitFor(() => incoming[1], "bob's second ringing call", 20_000);
  await ring.reject();
  await waitFor(() => second.state.getSnapshot() === "ended", "alice's second call ended", 20_000);
  expect(second.hangupReason).toBe("user_hangup");
  expect(second.hangupParty).toBe("remote");
}, 90_000);
