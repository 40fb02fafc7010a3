/**
 * Call events (to-device) from a device whose membership we have not seen
 * yet. Over sync the signalling can come first: Synapse delivered a
 * caller's invite in an earlier sync than its member state event, so the
 * invite was dropped and the call waited for the caller's participant
 * timeout (15 s) and its next retry, about 20 s in all. Held instead, in
 * arrival order and for at most the participant timeout, they are handed
 * back once the device is a participant. Nothing is answered before that:
 * a device without a valid membership still gets no media (CVE-2023-29529).
 */
import type { CallContent } from "../call/types";
import { GROUP_CALL_TIMINGS } from "./types";

/** One held event, with when it arrived. */
export interface HeldSignal {
  sender: string;
  type: string;
  content: CallContent;
  at: number;
}

/** How many events are held at most; the oldest goes first. */
const MAX_HELD = 64;

export class HeldSignals {
  private list: HeldSignal[] = [];

  hold(signal: HeldSignal): void {
    this.prune(signal.at);
    if (this.list.length >= MAX_HELD) this.list.shift();
    this.list.push(signal);
  }

  /** Removes and returns, in arrival order, the held events `ready` accepts now. */
  take(now: number, ready: (signal: HeldSignal) => boolean): HeldSignal[] {
    this.prune(now);
    const taken = this.list.filter(ready);
    this.list = this.list.filter((s) => !taken.includes(s));
    return taken;
  }

  clear(): void {
    this.list = [];
  }

  private prune(now: number): void {
    this.list = this.list.filter((s) => now - s.at < GROUP_CALL_TIMINGS.participantTimeoutMs);
  }
}
