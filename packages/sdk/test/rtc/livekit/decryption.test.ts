/**
 * A decryption-failure mark ends on every path: a new key, media decoding
 * again (video frames, or audio samples not concealed, for a voice-only
 * member), a track subscribed or unmuted after the watch ran out, the
 * participant leaving; a missing key index is a mark of its own (shown as
 * waiting for keys) and never downgrades a failing key.
 */
import { describe, expect, it } from "vitest";
import {
  DecryptionFailures,
  decodedProgress,
  FAILURE_RECHECKS,
  type StatsReport,
} from "../../../src/rtc/livekit/decryption";

const report = (...stats: Array<Record<string, unknown>>): StatsReport =>
  new Map(stats.map((s, i) => [i, s]));

function setup() {
  const progress = new Map<string, number | undefined>();
  let changes = 0;
  let slept = 0;
  const failures = new DecryptionFailures({
    progress: (identity) => Promise.resolve(progress.get(identity)),
    sleep: () => {
      slept++;
      return Promise.resolve();
    },
    changed: () => changes++,
    active: () => true,
  });
  return { failures, progress, changes: () => changes, slept: () => slept };
}

const settle = async (): Promise<void> => {
  for (let i = 0; i < 5 * FAILURE_RECHECKS; i++) await Promise.resolve();
};

describe("decryption failures", () => {
  it("counts decoded video frames and unconcealed audio samples; nothing without a receiver", () => {
    expect(decodedProgress([])).toBeUndefined();
    expect(decodedProgress([undefined, report({ type: "outbound-rtp", framesEncoded: 9 })])).toBeUndefined();
    expect(
      decodedProgress([
        report({ type: "inbound-rtp", framesDecoded: 40 }),
        report({ type: "inbound-rtp", totalSamplesReceived: 4800, concealedSamples: 800 }),
      ]),
    ).toBe(4040);
    // Audio that fails to decrypt is concealed: received grows, the difference does not.
    expect(
      decodedProgress([report({ type: "inbound-rtp", totalSamplesReceived: 9600, concealedSamples: 5600 })]),
    ).toBe(4000);
  });

  it("a missing key index after a rotation is waiting for keys, and the new key ends it", async () => {
    const { failures, progress } = setup();
    progress.set("@bob:hs:B", 100);
    // As livekit-client's worker posts it: the reason, then the words.
    failures.report("@bob:hs:B", new Error("MissingKey: missing key at index 3 for participant @bob:hs:B"));
    expect(failures.kind("@bob:hs:B")).toBe("missing_key");
    await settle();
    // No frame decoded meanwhile (the progress stood): still waiting.
    expect(failures.kind("@bob:hs:B")).toBe("missing_key");
    failures.clear("@bob:hs:B");
    expect(failures.kind("@bob:hs:B")).toBeUndefined();
  });

  it("a failing key is not downgraded by a later missing key; decoded media ends it", async () => {
    const { failures, progress } = setup();
    progress.set("@bob:hs:B", 10);
    failures.report("@bob:hs:B", new Error("InvalidKey: Decryption failed: OperationError"));
    failures.report("@bob:hs:B", new Error("missing key at index 0 for participant @bob:hs:B"));
    expect(failures.kind("@bob:hs:B")).toBe("failed");
    progress.set("@bob:hs:B", 50);
    await settle();
    expect(failures.kind("@bob:hs:B")).toBeUndefined();
  });

  it("a voice-only member's mark ends when their audio decodes", async () => {
    const { failures, progress } = setup();
    progress.set(
      "@carol:hs:C",
      decodedProgress([report({ type: "inbound-rtp", totalSamplesReceived: 100, concealedSamples: 100 })]),
    );
    failures.report("@carol:hs:C", new Error("invalid key"));
    progress.set(
      "@carol:hs:C",
      decodedProgress([report({ type: "inbound-rtp", totalSamplesReceived: 300, concealedSamples: 120 })]),
    );
    await settle();
    expect(failures.kind("@carol:hs:C")).toBeUndefined();
  });

  it("after the watch ran out, an unmute starts another that ends the mark; leaving clears it", async () => {
    const { failures, progress, slept } = setup();
    progress.set("@bob:hs:B", 7);
    failures.report("@bob:hs:B", new Error("invalid key"));
    await settle();
    expect(slept()).toBe(FAILURE_RECHECKS);
    expect(failures.kind("@bob:hs:B")).toBe("failed");
    // Nothing watched now; their camera comes back and decodes.
    failures.recheck("@bob:hs:B");
    progress.set("@bob:hs:B", 30);
    await settle();
    expect(failures.kind("@bob:hs:B")).toBeUndefined();
    // An unmarked participant is not watched at all.
    failures.recheck("@bob:hs:B");
    await settle();
    expect(slept()).toBeLessThanOrEqual(FAILURE_RECHECKS + 2);

    failures.report("@dan:hs:D", new Error("invalid key"));
    failures.clear("@dan:hs:D");
    expect(failures.kind("@dan:hs:D")).toBeUndefined();
    failures.report("@dan:hs:D", new Error("invalid key"));
    failures.clearAll();
    expect(failures.kind("@dan:hs:D")).toBeUndefined();
  });
});
