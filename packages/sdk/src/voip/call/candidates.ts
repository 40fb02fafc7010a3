/**
 * ICE candidates in both directions. Outgoing ones are batched into one
 * m.call.candidates (500 ms for an inbound call, 2000 ms for an outbound
 * one), held while an inbound call has not sent its answer, and re-sent on
 * failure with 500·2ⁿ ms back-off. Incoming ones wait, per sending party,
 * until the remote description is set and the opponent party is chosen.
 *
 * The answer waits briefly for the answerer's first candidates
 * (InitialGathering) so its SDP already carries them; those are then
 * dropped from the batch. This saves the 500 ms inbound batch at set-up:
 * the caller checks the answerer's candidates as soon as the answer
 * arrives (the answerer learns the caller's address from those checks).
 */
import type { IceCandidate } from "../platform";
import type { OwnedTimers } from "../timers";
import { CALL_TIMINGS } from "./types";
import { backoffDelay } from "../../util/backoff";
import type { BackoffPolicy } from "../../util/backoff";

/** Candidate batches are re-sent after 500 ms, then 1 s, 2 s…, without jitter. */
const CANDIDATE_BACKOFF: BackoffPolicy = { baseDelayMs: 500, maxDelayMs: Infinity, jitter: "none" };

export interface OutgoingCandidatesOptions {
  timers: OwnedTimers;
  /** The batching delay (it depends on the call's direction, known later). */
  delayMs: () => number;
  send(candidates: IceCandidate[]): Promise<void>;
  /** All retries failed. */
  onGiveUp(error: unknown): void;
}

export class OutgoingCandidates {
  private queue: IceCandidate[] = [];
  private held = true;
  private scheduled = false;
  private tries = 0;

  constructor(private readonly options: OutgoingCandidatesOptions) {}

  /** Releases held candidates (outbound calls at once, inbound ones after the answer). */
  release(): void {
    this.held = false;
    if (this.queue.length > 0) this.schedule(this.options.delayMs());
  }

  /** Drops queued candidates that `sdp` already carries (a browser's local description includes those gathered so far). */
  dropIncludedIn(sdp: string): void {
    this.queue = this.queue.filter((c) => !sdp.includes(c.candidate));
  }

  push(candidate: IceCandidate): void {
    this.queue.push(candidate);
    if (!this.held) this.schedule(this.options.delayMs());
  }

  private schedule(delayMs: number): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.options.timers.after(delayMs, () => void this.flush());
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const batch = this.queue.splice(0);
    if (batch.length === 0) return;
    try {
      await this.options.send(batch);
      this.tries = 0;
    } catch (error) {
      this.queue.unshift(...batch);
      if (this.tries >= CALL_TIMINGS.candidateSendRetries) {
        this.options.onGiveUp(error);
        return;
      }
      const delay = backoffDelay(this.tries + 1, CANDIDATE_BACKOFF);
      this.tries += 1;
      this.schedule(delay);
    }
  }
}

/**
 * Waits for the first candidates: until gathering completes, or
 * CALL_TIMINGS.initialCandidatesSettleMs after the first candidate (the
 * host candidates come together; server-reflexive and relay ones follow a
 * round trip later, in the batch), at most CALL_TIMINGS.initialGatheringMaxMs.
 */
export class InitialGathering {
  private complete = false;
  private sawCandidate = false;
  private waiters: Array<() => void> = [];

  constructor(private readonly timers: OwnedTimers) {}

  /** Gathering reached `state` (a null candidate counts as complete). */
  onState(state: string): void {
    if (state !== "complete") return;
    this.complete = true;
    this.release();
  }

  /** A local candidate was gathered. */
  onCandidate(): void {
    if (this.sawCandidate) return;
    this.sawCandidate = true;
    this.timers.after(CALL_TIMINGS.initialCandidatesSettleMs, () => this.release());
  }

  /** Resolves once the first candidates are in, gathering is complete, or the wait is over. */
  wait(current: string): Promise<void> {
    if (this.complete || current === "complete") return Promise.resolve();
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      this.timers.after(CALL_TIMINGS.initialGatheringMaxMs, () => {
        this.waiters = this.waiters.filter((w) => w !== resolve);
        resolve();
      });
    });
  }

  private release(): void {
    for (const resolve of this.waiters.splice(0)) resolve();
  }
}

/** Remote candidates kept until they can be added, by sender party id. */
export class IncomingCandidates {
  private readonly buffered = new Map<string, IceCandidate[]>();

  add(party: string, candidates: readonly IceCandidate[]): void {
    const list = this.buffered.get(party) ?? [];
    list.push(...candidates);
    this.buffered.set(party, list);
  }

  /** Takes the buffered candidates of `party`, dropping everyone else's. */
  take(party: string): IceCandidate[] {
    const list = this.buffered.get(party) ?? [];
    this.buffered.clear();
    return list;
  }
}

/** The party key of a version 0 peer, which has no party id. */
export const NO_PARTY = "";
