/**
 * The call view models without a browser: the 1:1 call's view model over
 * the SDK's fake connected pair (status, call length, feeds, mute, hold
 * on both sides, hang up), the timeline's call lines (started, ended with
 * its duration, missed, declined, group call), the stored preferences and
 * the pre-call check's words.
 */
import { describe, expect, it } from "vitest";
import { connectedPair, flush } from "@lattice/sdk/test/voip/harness";
import type { PreCallCheckResult, TimelineItem } from "../../sdk";
import { OneToOneCallViewModel } from "./ActiveCall";
import { CallSettings } from "./CallSettings";
import { preCallView } from "./PreCallViewModel";
import { CallIndex, callSummary, formatDuration } from "./timeline";

function item(
  id: string,
  type: string,
  sender: string,
  ts: number,
  content: Record<string, unknown>,
): TimelineItem {
  return {
    eventId: id,
    type,
    sender,
    ts,
    content,
    edited: false,
    redacted: false,
    reactions: [],
    event: { event_id: id, type, sender, origin_server_ts: ts, content },
  };
}

const nameOf = (userId: string): string => userId.slice(1, userId.indexOf(":"));

describe("call view models", () => {
  it("follows a 1:1 call: connected, ticking length, feeds, mute, hold on both sides, hang up", async () => {
    const { scheduler, outbound, inbound } = await connectedPair();
    const caller = new OneToOneCallViewModel(outbound);
    const callee = new OneToOneCallViewModel(inbound);
    expect(caller.status.getSnapshot()).toBe("connected");
    await scheduler.advance(3_000);
    expect(caller.length.getSnapshot()).toBeGreaterThanOrEqual(3_000);
    expect(caller.feeds.getSnapshot().map((f) => [f.isLocal, f.purpose])).toEqual([
      [true, "m.usermedia"],
      [false, "m.usermedia"],
    ]);

    await caller.setMicrophoneMuted(true);
    await flush();
    expect(caller.microphoneMuted.getSnapshot()).toBe(true);
    const remote = callee.feeds.getSnapshot().find((f) => !f.isLocal);
    expect(remote?.mute.getSnapshot().audioMuted).toBe(true);

    caller.setHold(true);
    await flush();
    expect(caller.hold.getSnapshot()).toEqual({ remoteOnHold: true, localOnHold: false });
    expect(callee.hold.getSnapshot()).toEqual({ remoteOnHold: false, localOnHold: true });
    caller.setHold(false);
    await flush();
    expect(callee.hold.getSnapshot().localOnHold).toBe(false);

    await callee.hangup();
    await flush();
    expect(callee.status.getSnapshot()).toBe("ended");
    expect(caller.status.getSnapshot()).toBe("ended");
    expect(caller.error.getSnapshot()).toBeNull();
    caller.dispose();
    callee.dispose();
  });

  it("reports a failure in the SPEC's words", async () => {
    const { outbound } = await connectedPair();
    const vm = new OneToOneCallViewModel(outbound);
    outbound.fail(
      "no_user_media",
      "Couldn't start capturing media! Is your microphone set up and does this app have permission?",
      new Error("denied"),
      false,
    );
    expect(vm.error.getSnapshot()).toBe(
      "Couldn't start capturing media! Is your microphone set up and does this app have permission?",
    );
    expect(vm.status.getSnapshot()).toBe("ended");
  });
});

describe("call lines in the timeline", () => {
  const alice = "@alice:localhost";
  const bob = "@bob:localhost";
  const video = { call_id: "c1", offer: { type: "offer", sdp: "v=0\r\nm=audio 9 UDP\r\nm=video 9 UDP\r\n" } };
  const items = [
    item("$1", "m.call.invite", alice, 1_000, video),
    item("$2", "m.call.answer", bob, 3_000, { call_id: "c1" }),
    item("$3", "m.call.hangup", bob, 68_000, { call_id: "c1" }),
    item("$4", "m.call.invite", alice, 100_000, {
      call_id: "c2",
      offer: { type: "offer", sdp: "m=audio 9" },
    }),
    item("$5", "m.call.hangup", alice, 160_000, { call_id: "c2", reason: "invite_timeout" }),
    item("$6", "m.call.invite", alice, 200_000, {
      call_id: "c3",
      offer: { type: "offer", sdp: "m=audio 9" },
    }),
    item("$7", "m.call.reject", bob, 201_000, { call_id: "c3" }),
    item("$8", "m.call.candidates", bob, 201_500, { call_id: "c3" }),
  ];
  const index = new CallIndex(items);
  const line = (i: number): string | null => callSummary(items[i] as TimelineItem, nameOf, index);

  it("says started (voice or video), ended with the duration, missed and declined; nothing for candidates", () => {
    expect(line(0)).toBe("alice started a video call");
    expect(line(2)).toBe("Call ended · 1:05");
    expect(line(3)).toBe("alice started a call");
    expect(line(4)).toBe("Missed call from alice");
    expect(line(6)).toBe("bob declined the call");
    expect(line(7)).toBeNull();
    expect(formatDuration(3_725_000)).toBe("1:02:05");
  });

  it("says a group call started and ended from its state event", () => {
    const started = item("$g", "org.matrix.msc3401.call", alice, 1, {
      "m.type": "m.voice",
      "m.intent": "m.prompt",
    });
    const ended = item("$h", "org.matrix.msc3401.call", alice, 2, { "m.terminated": "call_ended" });
    expect(callSummary(started, nameOf, index)).toBe("alice started a group call");
    expect(callSummary(ended, nameOf, index)).toBe("Group call ended");
  });
});

describe("call preferences and the pre-call check", () => {
  it("stores device and processing choices, and reads damaged storage as the defaults", () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    };
    const settings = new CallSettings(storage);
    expect(settings.current).toEqual({
      echoCancellation: true,
      noiseSuppression: true,
      fallbackStunAllowed: false,
      groupCalls: "lattice",
      oneToOneCalls: "legacy",
    });
    settings.update({ microphoneId: "mic-2", noiseSuppression: false, fallbackStunAllowed: true });
    expect(new CallSettings(storage).current).toMatchObject({
      microphoneId: "mic-2",
      noiseSuppression: false,
      fallbackStunAllowed: true,
    });
    store.set("lattice.calls.preferences", "{not json");
    expect(new CallSettings(storage).current.echoCancellation).toBe(true);
  });

  it("words the check: reachable, unreachable, not configured, and the candidate counts", () => {
    const result: PreCallCheckResult = {
      candidateTypes: { host: 2, srflx: 1, prflx: 0, relay: 0 },
      stunConfigured: true,
      turnConfigured: true,
      stunReachable: true,
      turnReachable: false,
      timedOut: false,
    };
    expect(preCallView(result)).toEqual({
      stun: "reachable",
      turn: "unreachable",
      candidates: { host: 2, srflx: 1, relay: 0 },
      timedOut: false,
      error: undefined,
    });
    expect(preCallView({ ...result, turnConfigured: false }).turn).toBe("not_configured");
  });
});
