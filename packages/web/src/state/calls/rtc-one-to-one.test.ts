/**
 * The 1:1 call route of CallsViewModel over real SDK clients on the test
 * homeserver (legacy calls on the SDK's fake media platform): with
 * MatrixRTC chosen, a server without a LiveKit focus gives a legacy call
 * and the "no-livekit" notice; with a focus but no sign of MatrixRTC from
 * bob, a legacy call and the "peer-unsupported" notice; once bob's client
 * has written a MatrixRTC membership (even a left one), the header opens
 * the LiveKit lobby set to ring bob. Legacy chosen stays legacy without a
 * notice, except that bob's running MatrixRTC call is joined (no ring).
 * The follow-up of the joined call: the RTC notification of type "ring"
 * with the call intent reaches bob, his decline ends alice's call saying
 * so; answered, the call ends when bob leaves it.
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
import { ObservableValue } from "../observables";
import { followOneToOne } from "./oneToOne";

let server: TestServerHandle;
let alice: Client;
let bob: Client;
let roomId: string;
let vm: CallsViewModel;
const settings = new CallSettings(undefined);
const network = new FakeNetwork();

beforeAll(async () => {
  server = await startTestServer({ seed: "web-rtc-one-to-one" });
  [alice, bob] = await Promise.all([
    startClient(server, "alice", { crypto: false, voip: { platform: network.platform() } }),
    startClient(server, "bob", { crypto: false, voip: { platform: network.platform() } }),
  ]);
  roomId = (
    await api.rooms.createRoom(alice.http, {
      preset: "private_chat",
      invite: [bob.userId],
      power_level_content_override: { events: { "org.matrix.msc3401.call.member": 0 } },
    })
  ).room_id;
  await waitFor(() => bob.rooms.find(roomId), "bob's invite");
  await bob.moderation.join(roomId);
  await waitForMembership(alice, roomId, bob.userId, "join");
  vm = new CallsViewModel(alice, settings, undefined, { openRoom: () => undefined });
  await vm.ready;
}, 30_000);

afterAll(async () => {
  vm?.dispose();
  await Promise.all([alice?.dispose(), bob?.dispose()]);
  await server?.stop();
});

async function placeAndHangUp(video: boolean): Promise<void> {
  await vm.place(roomId, video, { lobby: true });
  expect(vm.error.getSnapshot()).toBeNull();
  const call = vm.active.getSnapshot();
  expect(call?.kind).toBe("one_to_one");
  if (call) await vm.hangup(call);
  await waitFor(() => vm.active.getSnapshot() === null, "the legacy call cleared", 15_000);
}

it("falls back to a legacy call without a LiveKit focus, and says why", async () => {
  settings.update({ oneToOneCalls: "matrixrtc" });
  await placeAndHangUp(false);
  expect(vm.notice.getSnapshot()).toEqual({ kind: "no-livekit", name: "bob" });
  expect(vm.lobby.getSnapshot()).toBeNull();
}, 30_000);

it("falls back to a legacy call when bob has shown no MatrixRTC, and says why", async () => {
  server.setRtcTransports([{ type: "livekit", livekit_service_url: "https://jwt.invalid" }]);
  await placeAndHangUp(true);
  expect(vm.notice.getSnapshot()).toEqual({ kind: "peer-unsupported", name: "bob" });
}, 30_000);

it("opens the LiveKit lobby set to ring bob once his client has written a MatrixRTC membership", async () => {
  // A call bob's app took part in and left: the left form under his device's state key.
  const stateKey = `_${bob.userId}_OLDPHONE_m.call`;
  await api.send.sendStateEvent(bob.http, roomId, "org.matrix.msc3401.call.member", {}, stateKey);
  await waitFor(
    () => alice.rooms.find(roomId)?.getSnapshot().state.get("org.matrix.msc3401.call.member", stateKey),
    "alice sees bob's membership",
    15_000,
  );
  await vm.place(roomId, true, { lobby: true });
  expect(vm.notice.getSnapshot()).toBeNull();
  expect(vm.active.getSnapshot()).toBeNull();
  expect(vm.lobby.getSnapshot()).toEqual({ roomId, video: true, ringUserId: bob.userId });
  vm.leaveLobby();
}, 30_000);

it("keeps legacy calls when legacy is chosen, but joins bob's running MatrixRTC call without ringing", async () => {
  settings.update({ oneToOneCalls: "legacy" });
  await placeAndHangUp(false);
  expect(vm.notice.getSnapshot()).toBeNull();
  expect(vm.joinsRunningCall(roomId)).toBe(false);

  const bobRtc = await bob.rtc();
  await bobRtc.join(roomId, { callIntent: "audio" });
  const aliceRtc = await alice.rtc();
  await waitFor(
    () =>
      aliceRtc
        .session(roomId)
        .memberships.getSnapshot()
        .some((m) => m.sender === bob.userId),
    "alice sees bob in the call",
    15_000,
  );
  // The header offers to join ("Join voice call"), since that is what placing a call does here.
  expect(vm.joinsRunningCall(roomId)).toBe(true);
  await vm.place(roomId, false, { lobby: true });
  expect(vm.lobby.getSnapshot()).toEqual({ roomId, video: false, ringUserId: undefined });
  vm.leaveLobby();
  await bobRtc.leave(roomId);
}, 30_000);

it("rings bob with the call's intent; his decline ends alice's call once, saying so", async () => {
  const aliceRtc = await alice.rtc();
  const bobRtc = await bob.rtc();
  await aliceRtc.join(roomId, { callIntent: "video" });
  const ringingOut = new ObservableValue(false);
  const call = { roomId, status: new ObservableValue<string>("waiting"), ringingOut };
  const ends: (string | undefined)[] = [];
  await followOneToOne(aliceRtc, call, bob.userId, { video: true }, (outcome) => ends.push(outcome));
  expect(ringingOut.getSnapshot()).toBe(true);
  const incoming = await waitFor(
    () => bobRtc.ringingForUs.getSnapshot().find((r) => r.roomId === roomId),
    "bob's ring",
    15_000,
  );
  expect(incoming.ring).toMatchObject({
    sender: alice.userId,
    type: "ring",
    userIds: [bob.userId],
    callIntent: "video",
    deprecated: false,
  });
  await bobRtc.decline(roomId, incoming.ring.eventId);
  await waitFor(() => ends.length > 0, "alice sees the decline", 15_000);
  expect(ends).toEqual(["declined"]);
  expect(ringingOut.getSnapshot()).toBe(false);
  call.status.set("ended");
  await aliceRtc.leave(roomId);
}, 30_000);

it("ends alice's call when bob, having answered, leaves it", async () => {
  const aliceRtc = await alice.rtc();
  const bobRtc = await bob.rtc();
  await aliceRtc.join(roomId, { callIntent: "audio" });
  const call = {
    roomId,
    status: new ObservableValue<string>("waiting"),
    ringingOut: new ObservableValue(false),
  };
  const ends: (string | undefined)[] = [];
  await followOneToOne(aliceRtc, call, bob.userId, { video: false }, (outcome) => ends.push(outcome));
  const incoming = await waitFor(
    () => bobRtc.ringingForUs.getSnapshot().find((r) => r.roomId === roomId),
    "bob's ring",
    15_000,
  );
  await bobRtc.join(roomId, { callIntent: "audio" });
  await waitFor(
    () => aliceRtc.ringsOf(roomId).getSnapshot().get(incoming.ring.eventId)?.state === "answered",
    "the ring answered",
    15_000,
  );
  expect(call.ringingOut.getSnapshot()).toBe(false);
  expect(ends).toEqual([]);
  await bobRtc.leave(roomId);
  await waitFor(() => ends.length > 0, "alice's call ended", 15_000);
  expect(ends).toEqual([undefined]);
  call.status.set("ended");
  await aliceRtc.leave(roomId);
}, 30_000);
