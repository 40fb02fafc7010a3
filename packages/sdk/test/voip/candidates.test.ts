/**
 * Set-up candidates: the answer waits for the first candidates (gathering
 * complete, or 20 ms after the first candidate, at most 200 ms), so its SDP
 * carries them, and candidates an SDP carries are not sent again in
 * m.call.candidates.
 */
import { describe, expect, it } from "vitest";
import { InitialGathering, OutgoingCandidates } from "../../src/voip/call/candidates";
import { CALL_TIMINGS } from "../../src/voip/call/types";
import type { IceCandidate } from "../../src/voip/platform";
import { OwnedTimers } from "../../src/voip/timers";
import { FakeScheduler, flush } from "../support/fake-scheduler";

const c = (n: number): IceCandidate => ({
  candidate: `candidate:${n} 1 udp 1 127.0.0.1 500${n} typ host`,
  sdpMid: "0",
});

describe("set-up candidates", () => {
  it("waits for gathering to complete, or 200 ms at most", async () => {
    const scheduler = new FakeScheduler();
    expect(CALL_TIMINGS.initialGatheringMaxMs).toBe(200);
    const early = new InitialGathering(new OwnedTimers(scheduler));
    let done = false;
    void early.wait("gathering").then(() => (done = true));
    await flush();
    expect(done).toBe(false);
    early.onState("complete");
    await flush();
    expect(done).toBe(true);

    const capped = new InitialGathering(new OwnedTimers(scheduler));
    let capDone = false;
    void capped.wait("gathering").then(() => (capDone = true));
    await scheduler.advance(199);
    expect(capDone).toBe(false);
    await scheduler.advance(1);
    expect(capDone).toBe(true);

    await expect(new InitialGathering(new OwnedTimers(scheduler)).wait("complete")).resolves.toBeUndefined();

    expect(CALL_TIMINGS.initialCandidatesSettleMs).toBe(20);
    const settled = new InitialGathering(new OwnedTimers(scheduler));
    let settledDone = false;
    void settled.wait("gathering").then(() => (settledDone = true));
    await scheduler.advance(50);
    settled.onCandidate();
    settled.onCandidate();
    await scheduler.advance(19);
    expect(settledDone).toBe(false);
    await scheduler.advance(1);
    expect(settledDone).toBe(true);
  });

  it("does not send again the candidates the SDP carries", async () => {
    const scheduler = new FakeScheduler();
    const sent: IceCandidate[][] = [];
    const out = new OutgoingCandidates({
      timers: new OwnedTimers(scheduler),
      delayMs: () => 2000,
      send: (batch) => {
        sent.push(batch);
        return Promise.resolve();
      },
      onGiveUp: () => undefined,
    });
    out.push(c(1));
    out.push(c(2));
    out.dropIncludedIn(`v=0\r\na=${c(1).candidate}\r\n`);
    out.release();
    await scheduler.advance(2000);
    expect(sent).toEqual([[c(2)]]);
  });
});
