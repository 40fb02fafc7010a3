/**
 * The pre-call check over the fake platform: candidate types gathered with
 * the configured ICE servers, STUN and TURN reachability, and time-outs.
 */
import { describe, expect, it } from "vitest";
import { candidateType, runPreCallCheck } from "../../src/voip/precall";
import { FakeScheduler } from "../support/fake-scheduler";
import { FakeNetwork } from "./fakes";

describe("pre-call check", () => {
  it("reports host, srflx and relay candidates with TURN configured", async () => {
    const platform = new FakeNetwork().platform();
    const result = await runPreCallCheck({
      platform,
      scheduler: new FakeScheduler(),
      iceServers: [{ urls: ["turn:turn.example.org:3478"], username: "u", credential: "p" }],
    });
    expect(result).toEqual({
      candidateTypes: { host: 1, srflx: 1, prflx: 0, relay: 1 },
      stunConfigured: false,
      turnConfigured: true,
      stunReachable: true,
      turnReachable: true,
      timedOut: false,
    });
    expect(platform.peer.closed).toBe(true);
  });

  it("reports only host candidates without ICE servers", async () => {
    const result = await runPreCallCheck({
      platform: new FakeNetwork().platform(),
      scheduler: new FakeScheduler(),
      iceServers: [],
    });
    expect(result.candidateTypes).toEqual({ host: 1, srflx: 0, prflx: 0, relay: 0 });
    expect(result.stunReachable).toBe(false);
    expect(result.turnReachable).toBe(false);
  });

  it("times out when gathering never completes, and reports a peer connection failure", async () => {
    const scheduler = new FakeScheduler();
    const platform = new FakeNetwork().platform();
    const create = platform.createPeerConnection.bind(platform);
    platform.createPeerConnection = (config, handlers) =>
      create(config, { ...handlers, onIceCandidate: (c) => c && handlers.onIceCandidate(c) });
    const pending = runPreCallCheck({
      platform,
      scheduler,
      iceServers: [{ urls: "stun:stun.example.org" }],
      timeoutMs: 5_000,
    });
    await scheduler.advance(5_000);
    const result = await pending;
    expect(result.timedOut).toBe(true);
    expect(result.stunReachable).toBe(true);
    platform.failCreatePeer = new Error("bad ICE server URL");
    const failed = await runPreCallCheck({ platform, scheduler, iceServers: [{ urls: "nonsense" }] });
    expect(failed.error).toBe("bad ICE server URL");
  });

  it("reads the candidate type", () => {
    expect(candidateType("candidate:1 1 udp 1 1.2.3.4 5 typ relay raddr 0.0.0.0")).toBe("relay");
    expect(candidateType("nonsense")).toBeUndefined();
  });
});
