/**
 * MatrixRTC through the client facade, two clients over HTTP on the test
 * homeserver (delayed events on, crypto off so keys go by the room
 * transport): each sees the other's membership and keys; a crashed client
 * is removed by its delayed leave and the survivor rotates its key; a
 * clean leave writes the empty membership.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { api } from "../../src";
import type { Client } from "../../src";
import { startClient, waitFor, waitForMembership, svc } from "../client/helpers";

/**
 * Bob's delayed leave (JoinOptions.delayedLeaveMs): the crash test waits for
 * the server to send it, and need not wait the product's 30 s for that; alice
 * joins as the product does, and the test checks she asked for 30 000 ms.
 */
const CRASH_DELAYED_LEAVE_MS = 8_000;

let server: TestServerHandle;
let alice: Client;
let bob: Client;
let roomId: string;
let bobOffline = false;
const warnings: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ seed: "rtc-client" });
  const logger = {
    debug: () => undefined,
    info: () => undefined,
    warn: (m: string) => void warnings.push(m),
    error: () => undefined,
  };
  [alice, bob] = await Promise.all([
    startClient(server, "alice", { crypto: false, logger }),
    startClient(server, "bob", {
      crypto: false,
      logger: { ...logger, warn: (m: string, e?: unknown) => void warnings.push(`bob: ${m} ${String(e)}`) },
      httpOptions: {
        retry: false,
        fetch: (input, init) =>
          bobOffline ? Promise.reject(new TypeError("fetch failed")) : fetch(input, init),
      },
    }),
  ]);
  // As call rooms do: every member may write its own call membership.
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
}, 30_000);

afterAll(async () => {
  await alice?.dispose();
  await bob?.dispose();
  await server?.stop();
});

it("a ring reaches the callee, who declines it; the caller sees it declined", async () => {
  await svc(alice).rtc.join(roomId, { callIntent: "audio" });
  const ringId = await svc(alice).rtc.ring(roomId, { userIds: [bob.userId], callIntent: "audio" });
  expect(ringId).toBeTruthy();
  const ring = await waitFor(
    () =>
      svc(bob)
        .rtc.ringsOf(roomId)
        .getSnapshot()
        .get(ringId ?? ""),
    "bob's ring",
  );
  expect(ring.state).toBe("ringing");
  expect(ring.ring).toMatchObject({
    sender: alice.userId,
    type: "ring",
    userIds: [bob.userId],
    callIntent: "audio",
  });
  await svc(bob).rtc.decline(roomId, ringId ?? "");
  expect(
    svc(bob)
      .rtc.ringsOf(roomId)
      .getSnapshot()
      .get(ringId ?? "")?.state,
  ).toBe("declined");
  await waitFor(
    () =>
      svc(alice)
        .rtc.ringsOf(roomId)
        .getSnapshot()
        .get(ringId ?? "")?.state === "declined",
    "alice sees the decline",
  );
}, 30_000);

it("two clients see each other's memberships and exchange keys over the room transport", async () => {
  await svc(alice).rtc.join(roomId, { callIntent: "audio" });
  await svc(bob).rtc.join(roomId, { keyTransport: "room", delayedLeaveMs: CRASH_DELAYED_LEAVE_MS });
  for (const [me, other] of [
    [alice, bob],
    [bob, alice],
  ] as const) {
    const seen = await waitFor(
      () =>
        svc(me)
          .rtc.session(roomId)
          .memberships.getSnapshot()
          .find((m) => m.sender === other.userId),
      `${other.userId}'s membership as seen by ${me.userId}`,
    );
    expect(seen.deviceId).toBe(other.deviceId);
    expect(seen.session).toEqual({ application: "m.call", id: "", scope: "m.room" });
    const participant = await waitFor(
      () =>
        svc(me)
          .rtc.participants(roomId)
          .getSnapshot()
          .find((p) => p.userId === other.userId),
      `${other.userId} as a participant of ${me.userId}`,
    );
    expect(participant.identity).toBe(`${other.userId}:${other.deviceId}`);
    const keys = await waitFor(() => participant.keys.getSnapshot().keys.get(0), `${other.userId}'s key 0`);
    expect(keys).toEqual(svc(other).rtc.ownKey(roomId).getSnapshot()?.key);
  }
  expect(svc(alice).rtc.active.getSnapshot().has(roomId)).toBe(true);
  // Alice began on to-device; without crypto it is unsupported, and bob's room key moved her to the room.
  expect(svc(alice).rtc.joined.getSnapshot().get(roomId)?.parts.transports.mode.getSnapshot()).toBe("room");
  // Both keep a delayed leave on the server: alice's with the product's delay, bob's with the test's.
  for (const [who, delay] of [
    [alice, 30_000],
    [bob, CRASH_DELAYED_LEAVE_MS],
  ] as const) {
    const delayed = await api.delayedEvents.getDelayedEvents(who.http);
    expect(
      delayed.delayed_events
        .filter((d) => d.room_id === roomId && d.type === "org.matrix.msc3401.call.member")
        .map((d) => d.delay),
    ).toEqual([delay]);
  }
}, 30_000);

it(
  "a crashed client leaves by its delayed leave and the survivor rotates its key",
  async () => {
    bobOffline = true;
    await waitFor(
      () => svc(alice).rtc.session(roomId).memberships.getSnapshot().length === 1,
      "bob's delayed leave",
      CRASH_DELAYED_LEAVE_MS + 5_000,
    );
    expect(svc(alice).rtc.session(roomId).memberships.getSnapshot()[0]?.sender).toBe(alice.userId);
    const state = alice.rooms.find(roomId)?.getSnapshot().state;
    expect(state?.content("org.matrix.msc3401.call.member", `_${bob.userId}_${bob.deviceId}_m.call`)).toEqual(
      {},
    );
    await waitFor(() => svc(alice).rtc.ownKey(roomId).getSnapshot()?.index === 1, "alice's new key", 15_000);
  },
  CRASH_DELAYED_LEAVE_MS + 30_000,
);

it("a clean leave writes the empty membership and ends the session", async () => {
  expect(await svc(alice).rtc.leave(roomId)).toBe(true);
  expect(await svc(alice).rtc.leave(roomId)).toBe(false);
  await waitFor(() => !svc(alice).rtc.active.getSnapshot().has(roomId), "the session ended");
  const state = alice.rooms.find(roomId)?.getSnapshot().state;
  expect(
    state?.content("org.matrix.msc3401.call.member", `_${alice.userId}_${alice.deviceId}_m.call`),
  ).toEqual({});
});
