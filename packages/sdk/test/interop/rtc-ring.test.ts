/**
 * Interop: a MatrixRTC ring in a room of two (the web app's MatrixRTC 1:1
 * call, docs/architecture/0030) on the test homeserver, the current Synapse
 * and Synapse 1.67: alice joins and rings bob with a video intent; bob's
 * client lists the ring for him with its sender, target and intent; his
 * decline reaches alice, whose ring ends "declined"; a second ring is
 * answered by bob joining the call.
 */
import { expect, it } from "vitest";
import { svc, waitFor } from "../client/helpers";
import { clientsOf, sharedRoom, SYNC_WAIT_MS } from "./clients";
import { describeEachServer } from "./servers";

const CALL_ROOM = { power_level_content_override: { events: { "org.matrix.msc3401.call.member": 0 } } };

describeEachServer("MatrixRTC rings in a room of two", (ctx) => {
  const client = clientsOf(ctx);

  it("alice rings bob; he sees it for him with its intent, declines, and her ring ends declined; a second ring is answered by his join", async () => {
    const [alice, bob] = await Promise.all([client("ring-alice"), client("ring-bob")]);
    const roomId = await sharedRoom(alice, [bob], CALL_ROOM);
    const aliceRtc = svc(alice).rtc;
    const bobRtc = svc(bob).rtc;
    await aliceRtc.join(roomId, { callIntent: "video", keyTransport: "room" });
    // The ring names our membership event: wait for its echo.
    await waitFor(
      () => aliceRtc.session(roomId).ownMembership()?.eventId,
      "alice's membership echo",
      SYNC_WAIT_MS,
    );

    const first = await aliceRtc.ring(roomId, { userIds: [bob.userId], callIntent: "video" });
    expect(first).toMatch(/^\$/);
    const incoming = await waitFor(
      () => bobRtc.ringingForUs.getSnapshot().find((r) => r.ring.eventId === first),
      "bob's ring",
      SYNC_WAIT_MS,
    );
    expect(incoming.roomId).toBe(roomId);
    expect(incoming.ring).toMatchObject({
      sender: alice.userId,
      type: "ring",
      userIds: [bob.userId],
      callIntent: "video",
      deprecated: false,
    });
    await bobRtc.decline(roomId, incoming.ring.eventId);
    await waitFor(
      () =>
        aliceRtc
          .ringsOf(roomId)
          .getSnapshot()
          .get(first ?? "")?.state === "declined",
      "alice sees the decline",
      SYNC_WAIT_MS,
    );
    expect(bobRtc.ringingForUs.getSnapshot().some((r) => r.ring.eventId === first)).toBe(false);

    const second = await aliceRtc.ring(roomId, { userIds: [bob.userId], callIntent: "audio" });
    await waitFor(
      () => bobRtc.ringingForUs.getSnapshot().find((r) => r.ring.eventId === second),
      "bob's second ring",
      SYNC_WAIT_MS,
    );
    await bobRtc.join(roomId, { callIntent: "audio", keyTransport: "room" });
    await waitFor(
      () =>
        aliceRtc
          .ringsOf(roomId)
          .getSnapshot()
          .get(second ?? "")?.state === "answered",
      "alice sees the ring answered",
      SYNC_WAIT_MS,
    );
    await bobRtc.leave(roomId);
    await aliceRtc.leave(roomId);
  });
});
