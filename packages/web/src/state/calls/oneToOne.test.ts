/**
 * The 1:1 call preference and decision, without a server: the stored
 * preference read defensively (legacy unless exactly "matrixrtc"), the
 * route for each combination of facts with its reason, and which
 * call.member state counts as the other side having shown MatrixRTC.
 */
import { describe, expect, it } from "vitest";
import { CallSettings, DEFAULT_CALL_PREFERENCES } from "./CallSettings";
import { decideOneToOne, fallbackOf, isRtcMembershipBy, stateShowsMatrixRtc } from "./oneToOne";
import type { OneToOneFacts, StateView } from "./oneToOne";

function storageWith(raw: string | null): { getItem(): string | null; setItem(k: string, v: string): void } {
  let value = raw;
  return {
    getItem: () => value,
    setItem: (_k, v) => {
      value = v;
    },
  };
}

describe("the oneToOneCalls preference", () => {
  it("defaults to legacy: no entry, an older entry without it, a damaged entry", () => {
    expect(DEFAULT_CALL_PREFERENCES.oneToOneCalls).toBe("legacy");
    expect(new CallSettings(undefined).current.oneToOneCalls).toBe("legacy");
    expect(new CallSettings(storageWith(null)).current.oneToOneCalls).toBe("legacy");
    expect(
      new CallSettings(storageWith(JSON.stringify({ groupCalls: "element-call" }))).current.oneToOneCalls,
    ).toBe("legacy");
    expect(new CallSettings(storageWith("{not json")).current.oneToOneCalls).toBe("legacy");
  });

  it("reads exactly 'matrixrtc'; any other value is legacy", () => {
    expect(
      new CallSettings(storageWith(JSON.stringify({ oneToOneCalls: "matrixrtc" }))).current.oneToOneCalls,
    ).toBe("matrixrtc");
    for (const bad of ["MatrixRTC", "livekit", "", 1, true, null, ["matrixrtc"], { v: "matrixrtc" }])
      expect(
        new CallSettings(storageWith(JSON.stringify({ oneToOneCalls: bad }))).current.oneToOneCalls,
      ).toBe("legacy");
  });

  it("stores a change beside the other preferences", () => {
    const storage = storageWith(JSON.stringify({ groupCalls: "element-call" }));
    new CallSettings(storage).update({ oneToOneCalls: "matrixrtc" });
    const again = new CallSettings(storage).current;
    expect(again.oneToOneCalls).toBe("matrixrtc");
    expect(again.groupCalls).toBe("element-call");
  });
});

describe("decideOneToOne", () => {
  const facts = (f: Partial<OneToOneFacts>): OneToOneFacts => ({
    preference: "matrixrtc",
    livekit: true,
    peerSupports: true,
    callRunning: false,
    ...f,
  });

  it("legacy by choice, whatever else holds (no fallback to tell)", () => {
    const d = decideOneToOne(facts({ preference: "legacy" }));
    expect(d).toEqual({ route: "legacy", reason: "preference" });
    expect(fallbackOf(d)).toBeUndefined();
  });

  it("MatrixRTC when chosen, the server offers LiveKit and the other side supports it", () => {
    const d = decideOneToOne(facts({}));
    expect(d).toEqual({ route: "matrixrtc", reason: "peer-supports" });
    expect(fallbackOf(d)).toBeUndefined();
  });

  it("falls back to legacy without a LiveKit focus, and says so", () => {
    const d = decideOneToOne(facts({ livekit: false }));
    expect(d).toEqual({ route: "legacy", reason: "no-livekit" });
    expect(fallbackOf(d)).toBe("no-livekit");
    // No focus outweighs a running call too: there is nothing to join it on.
    expect(decideOneToOne(facts({ livekit: false, callRunning: true })).reason).toBe("no-livekit");
  });

  it("falls back to legacy when the other side has not shown MatrixRTC, and says so", () => {
    const d = decideOneToOne(facts({ peerSupports: false }));
    expect(d).toEqual({ route: "legacy", reason: "peer-unsupported" });
    expect(fallbackOf(d)).toBe("peer-unsupported");
  });

  it("joins the other side's running MatrixRTC call, even with legacy chosen", () => {
    expect(decideOneToOne(facts({ callRunning: true, preference: "legacy" }))).toEqual({
      route: "matrixrtc",
      reason: "call-running",
    });
    expect(decideOneToOne(facts({ callRunning: true, peerSupports: false }))).toEqual({
      route: "matrixrtc",
      reason: "call-running",
    });
  });
});

describe("what shows MatrixRTC support", () => {
  const bob = "@bob:hs";
  const state = (entries: Record<string, { sender?: unknown; content?: unknown }>): StateView => ({
    ofType: (type) =>
      new Map(type === "org.matrix.msc3401.call.member" ? Object.entries(entries) : ([] as const)),
  });

  it("counts a current membership and a left one under a per-device key", () => {
    const current = { sender: bob, content: { application: "m.call", call_id: "", device_id: "D" } };
    expect(isRtcMembershipBy(bob, `_${bob}_D_m.call`, current)).toBe(true);
    expect(isRtcMembershipBy(bob, `_${bob}_D_m.call`, { sender: bob, content: {} })).toBe(true);
    expect(isRtcMembershipBy(bob, `${bob}_D`, { sender: bob, content: {} })).toBe(true);
  });

  it("does not count a mesh call's member state, someone else's membership, or junk", () => {
    expect(isRtcMembershipBy(bob, bob, { sender: bob, content: { "m.calls": [] } })).toBe(false);
    expect(isRtcMembershipBy(bob, bob, { sender: bob, content: {} })).toBe(false);
    expect(
      isRtcMembershipBy(bob, `_${bob}_D_m.call`, { sender: "@eve:hs", content: { application: "m.call" } }),
    ).toBe(false);
    expect(isRtcMembershipBy(bob, `_${bob}_D_m.call`, { sender: bob, content: null })).toBe(false);
    expect(isRtcMembershipBy(bob, `_${bob}_D_m.call`, { sender: bob, content: ["m.call"] })).toBe(false);
    expect(
      isRtcMembershipBy(bob, `_${bob}_D_m.call`, { sender: bob, content: { application: "m.other" } }),
    ).toBe(false);
  });

  it("looks through every room given", () => {
    const none = state({ [bob]: { sender: bob, content: { "m.calls": [] } } });
    const some = state({ [`_${bob}_D_m.call`]: { sender: bob, content: {} } });
    expect(stateShowsMatrixRtc(bob, [none])).toBe(false);
    expect(stateShowsMatrixRtc(bob, [none, some])).toBe(true);
    expect(stateShowsMatrixRtc("@carol:hs", [none, some])).toBe(false);
  });
});
