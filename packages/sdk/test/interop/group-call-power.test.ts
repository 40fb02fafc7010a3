/**
 * Interop: rooms created with withCallMemberPowerLevel (as the app creates
 * them) let a member without power send `org.matrix.msc3401.call.member`
 * state, so they can join a group call; in a room created without it the
 * server refuses the same event (state_default 50), which is why the app
 * sets it. Against every server of the fixture: the test homeserver and
 * Synapse.
 */
import { expect, it } from "vitest";
import { sendStateEvent } from "../../src/api/send";
import { MatrixError } from "../../src/http/errors";
import { GROUP_CALL_MEMBER_EVENT } from "../../src/voip/group/types";
import { withCallMemberPowerLevel } from "../../src/voip/group/powerLevels";
import { FakeNetwork } from "../voip/fakes";
import { waitFor, svc } from "../client/helpers";
import { clientsOf, sharedRoom, SYNC_WAIT_MS } from "./clients";
import { describeEachServer } from "./servers";

describeEachServer("group call power levels", (ctx) => {
  const client = clientsOf(ctx);

  it("a member joins a mesh group call in a room the app created; without the override the server refuses", async () => {
    const network = new FakeNetwork();
    const alice = await client("gc-alice", { voip: { platform: network.platform() } });
    const bob = await client("gc-bob", { voip: { platform: network.platform() } });

    const bare = await sharedRoom(alice, [bob]);
    // Straight to the server (the client's own power check would refuse it first).
    const refused = await sendStateEvent(
      bob.http,
      bare,
      GROUP_CALL_MEMBER_EVENT,
      { "m.calls": [] },
      bob.userId,
    )
      .then(() => undefined)
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(MatrixError);
    expect((refused as MatrixError).errcode).toBe("M_FORBIDDEN");

    const roomId = await sharedRoom(alice, [bob], withCallMemberPowerLevel({}));
    // The override's events map replaces the server's whole map: the defaults must survive it.
    const levels = await waitFor(
      () => {
        const pl = alice.rooms.find(roomId)?.getSnapshot().state.powerLevels;
        return pl?.hasEvent ? pl : undefined;
      },
      "alice's power levels",
      SYNC_WAIT_MS,
    );
    expect(levels.requiredForEvent(GROUP_CALL_MEMBER_EVENT, true)).toBe(0);
    expect(levels.requiredForEvent("m.room.power_levels", true)).toBe(100);
    expect(levels.requiredForEvent("m.room.history_visibility", true)).toBe(100);
    expect(levels.requiredForEvent("m.room.encryption", true)).toBe(100);
    const group = await svc(alice).voip.createGroupCall(roomId, { type: "m.voice", intent: "m.prompt" });
    await group.enter();
    const bobsGroup = await waitFor(
      () => svc(bob).voip.groupCall(roomId),
      "bob sees the group call",
      SYNC_WAIT_MS,
    );
    await bobsGroup.enter();
    await waitFor(
      () => group.participants.getSnapshot().some((p) => p.userId === bob.userId),
      "alice sees bob's device in the call",
      SYNC_WAIT_MS,
    );
    await waitFor(
      () => [...group.calls.getSnapshot().values()].some((c) => c.state.getSnapshot() === "connected"),
      "alice and bob connected",
      SYNC_WAIT_MS,
    );
    await bobsGroup.leave();
    await group.leave();
  }, 120_000);
});
