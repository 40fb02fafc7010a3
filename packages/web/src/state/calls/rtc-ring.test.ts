/**
 * The MatrixRTC ring toast of CallsViewModel over real SDK clients on the
 * test homeserver: alice joins a MatrixRTC call and rings bob; bob's view
 * model shows the ring toast (caller, room, voice or video) and announces
 * it once, and the toast goes when bob declines (alice sees the ring
 * declined), when bob joins from his other device, when alice leaves the
 * call, and when the ring's lifetime passes.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { api } from "@lattice/sdk";
import type { Client } from "@lattice/sdk";
import {
  startAnotherDevice,
  startClient,
  waitFor,
  waitForMembership,
} from "@lattice/sdk/test/client/helpers";
import { CallSettings } from "./CallSettings";
import { CallsViewModel } from "./CallsViewModel";
import type { IncomingCallView } from "./CallsViewModel";

let server: TestServerHandle;
let alice: Client;
let bob: Client;
let bobPhone: Client;
let roomId: string;
let vm: CallsViewModel;
const announced: IncomingCallView[] = [];

beforeAll(async () => {
  server = await startTestServer({ seed: "web-rtc-ring" });
  [alice, bob] = await Promise.all([
    startClient(server, "alice", { crypto: false }),
    startClient(server, "bob", { crypto: false }),
  ]);
  bobPhone = await startAnotherDevice(server, bob, { crypto: false });
  // As call rooms do: every member may write its own call membership.
  roomId = (
    await api.rooms.createRoom(alice.http, {
      preset: "public_chat",
      name: "Standup",
      power_level_content_override: { events: { "org.matrix.msc3401.call.member": 0 } },
    })
  ).room_id;
  await waitFor(() => bob.rooms.find(roomId), "bob sees the room", 15_000).catch(() => undefined);
  await bob.moderation.join(roomId);
  await waitForMembership(alice, roomId, bob.userId, "join");
  await waitForMembership(bobPhone, roomId, bob.userId, "join");
  vm = new CallsViewModel(bob, new CallSettings(undefined), undefined, {
    openRoom: () => undefined,
    notify: (c) => announced.push(c),
  });
}, 30_000);

afterAll(async () => {
  vm?.dispose();
  await Promise.all([alice?.dispose(), bob?.dispose(), bobPhone?.dispose()]);
  await server?.stop();
});

const rtcToast = () => vm.incomingGroup.toasts.getSnapshot().find((t) => t.kind === "rtc");

async function ring(lifetimeMs?: number): Promise<string> {
  if (!(await alice.rtc()).joined.getSnapshot().has(roomId))
    await (await alice.rtc()).join(roomId, { callIntent: "audio" });
  const id = await (
    await alice.rtc()
  ).ring(roomId, {
    userIds: [bob.userId],
    callIntent: "audio",
    ...(lifetimeMs !== undefined ? { lifetimeMs } : {}),
  });
  if (id === undefined) throw new Error("the ring has no event id");
  await waitFor(() => rtcToast()?.id === id, "bob's ring toast", 15_000);
  return id;
}

it("shows the ring with Join and Decline; Decline ends it here and tells the caller", async () => {
  const id = await ring();
  expect(rtcToast()).toEqual({
    id,
    kind: "rtc",
    roomId,
    roomName: "Standup",
    callerId: alice.userId,
    callerName: "alice",
    video: false,
  });
  expect(announced.map((a) => a.id)).toEqual([id]);
  // One toast although alice sent the ring in both forms (RTC notification and call.notify).
  const bobRtc = await bob.rtc();
  await waitFor(() => bobRtc.ringsOf(roomId).getSnapshot().size === 2, "both forms reach bob", 15_000);
  expect(vm.incomingGroup.toasts.getSnapshot().filter((t) => t.kind === "rtc")).toHaveLength(1);

  await vm.declineRing(id);
  expect(rtcToast()).toBeUndefined();
  const aliceRtc = await alice.rtc();
  await waitFor(
    () => aliceRtc.ringsOf(roomId).getSnapshot().get(id)?.state === "declined",
    "alice sees the decline",
    15_000,
  );
  expect(announced).toHaveLength(1);
});

it("stops ringing when bob joins the call from his other device", async () => {
  await ring();
  await (await bobPhone.rtc()).join(roomId);
  await waitFor(() => rtcToast() === undefined, "the toast gone after bob joined elsewhere", 15_000);
  await (await bobPhone.rtc()).leave(roomId);
});

it("stops ringing when the caller leaves the call", async () => {
  await ring();
  await (await alice.rtc()).leave(roomId);
  await waitFor(() => rtcToast() === undefined, "the toast gone after alice left", 15_000);
});

it("stops ringing when the ring's lifetime passes", async () => {
  const id = await ring(3_000);
  expect(rtcToast()?.id).toBe(id);
  await waitFor(() => rtcToast() === undefined, "the toast gone after its lifetime", 15_000);
  // Alice is still in the call: it was the lifetime, not a leave.
  expect((await alice.rtc()).joined.getSnapshot().has(roomId)).toBe(true);
  await (await alice.rtc()).leave(roomId);
});
