/**
 * ICE rules of the 1:1 call (SPEC §4, §9) on fake time: connected and
 * completed give connected; disconnected gives connecting, restarts ICE
 * after 2 s and hangs up after 30 s; failed restarts ICE or hangs up when
 * restart is unsupported; the call length ticks every second.
 */
import { describe, expect, it } from "vitest";
import type { Call } from "../../src/voip/call/Call";
import { connectedPair, flush, ROOM, setup } from "./harness";

describe("1:1 call ICE", () => {
  it("completed gives connected too", async () => {
    const { alice, outbound } = await connectedPair();
    alice.platform.peer.setIceState("disconnected");
    expect(outbound.state.getSnapshot()).toBe("connecting");
    alice.platform.peer.setIceState("completed");
    expect(outbound.state.getSnapshot()).toBe("connected");
  });

  it("disconnected gives connecting, restarts ICE after 2 s (m.call.negotiate) and hangs up ice_failed after 30 s", async () => {
    const { scheduler, alice, network, outbound } = await connectedPair();
    network.autoConnect = false;
    const peer = alice.platform.peer;
    peer.setIceState("disconnected");
    expect(outbound.state.getSnapshot()).toBe("connecting");
    await scheduler.advance(1_999);
    expect(peer.restarts).toBe(0);
    await scheduler.advance(1);
    expect(peer.restarts).toBe(1);
    await flush();
    const negotiate = alice.sentOf("m.call.negotiate")[0];
    expect(negotiate?.content.description?.type).toBe("offer");
    expect(JSON.parse(negotiate?.content.description?.sdp ?? "{}")).toMatchObject({ restart: true });
    await scheduler.advance(27_999);
    expect(outbound.state.getSnapshot()).toBe("connecting");
    await scheduler.advance(1);
    expect(outbound.state.getSnapshot()).toBe("ended");
    expect(alice.sentOf("m.call.hangup")[0]?.content.reason).toBe("ice_failed");
  });

  it("a reconnect within 30 s cancels the hangup", async () => {
    const { scheduler, alice, outbound } = await connectedPair();
    alice.platform.peer.setIceState("disconnected");
    await scheduler.advance(10_000);
    alice.platform.peer.setIceState("connected");
    await scheduler.advance(30_000);
    expect(outbound.state.getSnapshot()).toBe("connected");
  });

  it("failed restarts ICE", async () => {
    const { alice, outbound } = await connectedPair();
    alice.platform.peer.setIceState("failed");
    expect(alice.platform.peer.restarts).toBe(1);
    expect(outbound.state.getSnapshot()).not.toBe("ended");
  });

  it("failed hangs up with ice_failed when the platform cannot restart ICE", async () => {
    const { alice, outbound } = await connectedPair({ alice: { restartIce: false } });
    alice.platform.peer.setIceState("failed");
    await flush();
    expect(outbound.state.getSnapshot()).toBe("ended");
    expect(outbound.hangupReason).toBe("ice_failed");
    expect(alice.sentOf("m.call.hangup")[0]?.content.reason).toBe("ice_failed");
  });

  it("ticks the call length every second while connected, and stops when ended", async () => {
    const { scheduler, outbound } = await connectedPair();
    const start = outbound.length.getSnapshot();
    await scheduler.advance(1_000);
    expect(outbound.length.getSnapshot()).toBe(start + 1_000);
    await scheduler.advance(1_000);
    expect(outbound.length.getSnapshot()).toBe(start + 2_000);
    expect(start % 1_000).toBe(0);
    await outbound.hangup();
    expect(scheduler.pending()).toEqual([]);
  });

  it("gives up on candidates after the retries and hangs up with signalling_timeout", async () => {
    const { scheduler, alice, bob } = setup();
    alice.hold = true;
    await alice.router.placeCall(ROOM, bob.userId);
    const call = alice.router.calls.getSnapshot()[0] as Call;
    alice.failSends = true;
    await scheduler.advance(2_000);
    for (const backoff of [500, 1_000, 2_000, 4_000]) {
      expect(call.state.getSnapshot()).toBe("invite_sent");
      await scheduler.advance(backoff);
    }
    await scheduler.advance(8_000);
    expect(call.state.getSnapshot()).toBe("ended");
    expect(call.hangupReason).toBe("signalling_timeout");
  });
});
