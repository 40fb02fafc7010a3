/**
 * Interop: a 1:1 call against every server of the fixture. Two clients with
 * fake media platforms on one fake network; alice calls bob in a room of
 * two, bob's client rings from sync, answers, both connect, alice hangs up
 * and bob's call ends with her reason. The m.call.* events travel as room
 * events through the server; a server without TURN configured ({} from
 * voip/turnServer) leaves the ICE servers empty.
 */
import { expect, it } from "vitest";
import type { Call } from "../../src/voip/call/Call";
import { waitFor, svc } from "../client/helpers";
import { FakeNetwork } from "../voip/fakes";
import { clientsOf, sharedRoom, SYNC_WAIT_MS } from "./clients";
import { describeEachServer } from "./servers";

describeEachServer("1:1 call", (ctx) => {
  const client = clientsOf(ctx);

  it("places, rings, answers, connects and hangs up", async () => {
    const network = new FakeNetwork();
    const [alicePlatform, bobPlatform] = [network.platform(), network.platform()];
    const alice = await client("call-alice", { voip: { platform: alicePlatform } });
    const bob = await client("call-bob", { voip: { platform: bobPlatform } });
    const roomId = await sharedRoom(alice, [bob], { is_direct: true });
    const incoming: Call[] = [];
    svc(bob).voip.onIncoming((call) => incoming.push(call));
    const outbound = await svc(alice).voip.placeCall(roomId, { video: true });
    const inbound = await waitFor(() => incoming[0], "bob's ringing call", SYNC_WAIT_MS);
    expect(inbound.callId).toBe(outbound.callId);
    await inbound.answer({ audio: true, video: true });
    await waitFor(() => outbound.state.getSnapshot() === "connected", "alice connected", SYNC_WAIT_MS);
    await waitFor(() => inbound.state.getSnapshot() === "connected", "bob connected", SYNC_WAIT_MS);
    expect(inbound.media.remoteFeed()?.stream.getVideoTracks()).toHaveLength(1);
    await outbound.hangup();
    await waitFor(() => inbound.state.getSnapshot() === "ended", "bob's call ended", SYNC_WAIT_MS);
    expect(inbound.hangupReason).toBe("user_hangup");
    expect(inbound.hangupParty).toBe("remote");
    expect([...alicePlatform.mediaDevices.live(), ...bobPlatform.mediaDevices.live()]).toEqual([]);
  }, 120_000);
});
