/**
 * Which remote participants' frames we cannot decrypt now, and when that
 * ends. LiveKit's encryption worker reports errors, never successes, so a
 * mark set by an error has to be cleared by something else, on every path:
 *
 * - a new key for them (frames that failed had no key to use);
 * - their media decoding again: while the mark stands their receivers'
 *   statistics are read every FAILURE_RECHECK_MS, and decoded video frames
 *   or decoded (not concealed) audio samples end it. Frames that fail to
 *   decrypt are dropped before the decoder, so decoding means decrypting.
 *   A frame under a key index we were never given (the sender's previous
 *   key, still in flight after a rotation when someone left or joined)
 *   fails while the frames under the current key decrypt: this ends it;
 * - a track of theirs subscribed or unmuted (a watch that ran out while
 *   nothing arrived starts again);
 * - them leaving the SFU (a re-joined member starts clean), or our re-join.
 *
 * A "missing key" error (the frame's key index has not reached us) is
 * shown as waiting for keys, not as undecryptable: the key may still come.
 */

/** How often a marked participant's receivers are checked for decoded media. */
export const FAILURE_RECHECK_MS = 2_000;
/** How many checks one watch makes (a minute's worth); a later error, subscription or unmute starts another. */
export const FAILURE_RECHECKS = 30;

/** Why a participant's frames are not decrypted: no key for the frame's index, or a key that fails. */
export type DecryptionFailureKind = "missing_key" | "failed";

/**
 * A frame whose key index we do not have: the worker posts its reason
 * before the words ("MissingKey: missing key at index 3 for participant …").
 */
function kindOf(error: unknown): DecryptionFailureKind {
  const message = error instanceof Error ? error.message : String(error);
  return /^(MissingKey: )?missing key at index/i.test(message) ? "missing_key" : "failed";
}

/** A receiver's statistics, as livekit-client's remote tracks give them. */
export type StatsReport = { forEach(each: (stat: Record<string, unknown>) => void): void } | undefined;

/**
 * How much of a participant's media has been decoded so far: video frames
 * decoded plus audio samples received and not concealed; undefined
 * without any receiver to tell by.
 */
export function decodedProgress(reports: readonly StatsReport[]): number | undefined {
  let total: number | undefined;
  for (const report of reports)
    report?.forEach((stat) => {
      if (stat["type"] !== "inbound-rtp") return;
      if (typeof stat["framesDecoded"] === "number") total = (total ?? 0) + stat["framesDecoded"];
      else if (typeof stat["totalSamplesReceived"] === "number")
        total =
          (total ?? 0) +
          stat["totalSamplesReceived"] -
          (typeof stat["concealedSamples"] === "number" ? stat["concealedSamples"] : 0);
    });
  return total;
}

export interface DecryptionFailuresOptions {
  /** The participant's decoded progress now (decodedProgress of their receivers). */
  progress(identity: string): Promise<number | undefined>;
  sleep(ms: number): Promise<void>;
  /** A mark was set or cleared: the participants are shown again. */
  changed(): void;
  /** False once the connection is left: watches stop. */
  active(): boolean;
}

export class DecryptionFailures {
  private readonly marks = new Map<string, DecryptionFailureKind>();
  private readonly watching = new Set<string>();

  constructor(private readonly options: DecryptionFailuresOptions) {}

  /** The mark of `identity`, if their frames are failing. */
  kind(identity: string): DecryptionFailureKind | undefined {
    return this.marks.get(identity);
  }

  /** LiveKit reported a decryption error for `identity`. */
  report(identity: string, error: unknown): void {
    const kind = kindOf(error);
    // A failing key is worse news than a missing one: it is kept until cleared.
    if (this.marks.get(identity) !== "failed") this.marks.set(identity, kind);
    this.options.changed();
    void this.watch(identity);
  }

  /** A new key, or they left the SFU: the mark ends. */
  clear(identity: string): void {
    if (this.marks.delete(identity)) this.options.changed();
  }

  /** Our re-join: everyone starts clean. */
  clearAll(): void {
    if (this.marks.size === 0) return;
    this.marks.clear();
    this.options.changed();
  }

  /** Their media may flow again (a track subscribed or unmuted): a marked participant is checked. */
  recheck(identity: string): void {
    if (this.marks.has(identity)) void this.watch(identity);
  }

  private async watch(identity: string): Promise<void> {
    if (this.watching.has(identity)) return;
    this.watching.add(identity);
    try {
      let before = await this.options.progress(identity);
      for (let check = 0; check < FAILURE_RECHECKS; check++) {
        if (!this.options.active() || !this.marks.has(identity)) return;
        await this.options.sleep(FAILURE_RECHECK_MS);
        const after = await this.options.progress(identity);
        if (after !== undefined && before !== undefined && after > before) {
          this.clear(identity);
          return;
        }
        // A receiver that appeared (or went) meanwhile: compare from here on.
        before = after;
      }
    } finally {
      this.watching.delete(identity);
    }
  }
}
