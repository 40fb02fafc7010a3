/**
 * Mesh group calls on fake peers and fake time (SPEC §3, §4, §5, §8, §9):
 * states, member state, who calls whom, to-device addressing, validity of
 * member devices, retries, timeouts, push-to-talk, and CVE-2023-29529.
 */
import { describe, expect, it } from "vitest";
import type { GroupCallError, GroupCallState } from "../../src/voip/group/types";
import { parseGroupCallContent, validDevices, wantsOutgoingCall } from "../../src/voip/group/types";
import { flush } from "../support/fake-scheduler";
import { GROUP_ID, GroupRoom } from "./group-harness";

const NOW = 1_700_000_000_000;
const device = (over: Record<string, unknown> = {}) => ({
  device_id: "D1",
  session_id: "S1",
  expires_ts: NOW + 1_000,
  feeds: [{ purpose: "m.usermedia" }],
  ...over,
});
const member = (devices: unknown[]) => ({ "m.calls": [{ "m.call_id": GROUP_ID, "m.devices": devices }] });

describe("group call content and member devices", () => {
  it("validates type and intent", () => {
    expect(parseGroupCallContent({ "m.type": "m.voice", "m.intent": "m.ring" })["m.type"]).toBe("m.voice");
    expect(() => parseGroupCallContent({ "m.type": "m.audio", "m.intent": "m.ring" })).toThrow(
      "Invalid group call type: m.audio",
    );
    expect(() => parseGroupCallContent({ "m.type": "m.video", "m.intent": "m.call" })).toThrow(
      "Invalid group call intent: m.call",
    );
  });
  it("refuses dataChannelOptions that are not an object", () => {
    expect(() =>
      parseGroupCallContent({ "m.type": "m.voice", "m.intent": "m.room", dataChannelOptions: "fast" }),
    ).toThrow("Invalid group call dataChannelOptions");
  });

  it("counts a device only with string device_id and session_id, a future numeric expires_ts, a feeds array and a joined user", () => {
    const count = (d: unknown, joined = true) =>
      validDevices("@a:hs", member([d]), GROUP_ID, NOW, joined).length;
    expect(count(device())).toBe(1);
    expect(count(device(), false)).toBe(0);
    expect(count(device({ device_id: 5 }))).toBe(0);
    expect(count(device({ session_id: null }))).toBe(0);
    expect(count(device({ expires_ts: String(NOW + 1_000) }))).toBe(0);
    expect(count(device({ expires_ts: NOW }))).toBe(0);
    expect(count(device({ feeds: "m.usermedia" }))).toBe(0);
    expect(validDevices("@a:hs", member([device()]), "another call", NOW, true)).toEqual([]);
    expect(
      validDevices(
        "@a:hs",
        member([device({ feeds: [{ purpose: "m.screenshare" }] })]),
        GROUP_ID,
        NOW,
        true,
      )[0]?.screensharing,
    ).toBe(true);
  });

  it("the lower user id, then the lower device id, waits for the other to call", () => {
    expect(wantsOutgoingCall({ userId: "@b:hs", deviceId: "X" }, { userId: "@a:hs", deviceId: "Y" })).toBe(
      true,
    );
    expect(wantsOutgoingCall({ userId: "@a:hs", deviceId: "Y" }, { userId: "@b:hs", deviceId: "X" })).toBe(
      false,
    );
    expect(wantsOutgoingCall({ userId: "@a:hs", deviceId: "B" }, { userId: "@a:hs", deviceId: "A" })).toBe(
      true,
    );
    expect(wantsOutgoingCall({ userId: "@a:hs", deviceId: "A" }, { userId: "@a:hs", deviceId: "B" })).toBe(
      false,
    );
  });
});

describe("group call states", () => {
  it("goes uninitialised → initialising → initialised → entered, back to uninitialised on leave, ended on terminate", async () => {
    const room = new GroupRoom();
    const alice = room.add("@alice:hs", "A1");
    const seen: GroupCallState[] = [alice.call.state.getSnapshot()];
    alice.call.state.subscribe((s) => seen.push(s));
    await alice.call.initLocalCallFeed();
    await alice.call.enter();
    await alice.call.leave();
    await alice.call.enter();
    await alice.call.terminate();
    expect(seen).toEqual([
      "local_call_feed_uninitialized",
      "initializing_local_call_feed",
      "local_call_feed_initialized",
      "entered",
      "local_call_feed_uninitialized",
      "initializing_local_call_feed",
      "local_call_feed_initialized",
      "entered",
      "local_call_feed_uninitialized",
      "ended",
    ]);
    expect(room.stateSends.at(-1)).toEqual({
      type: "org.matrix.msc3401.call",
      stateKey: GROUP_ID,
      content: { "m.type": "m.video", "m.intent": "m.room", "m.terminated": "call_ended" },
    });
    expect(room.scheduler.pending()).toEqual([]);
    expect(alice.platform.mediaDevices.live()).toEqual([]);
  });

  it("terminate(false) ends without the state event", async () => {
    const room = new GroupRoom();
    const alice = room.add("@alice:hs", "A1");
    await alice.call.enter();
    const sends = room.stateSends.length;
    await alice.call.terminate(false);
    expect(alice.call.state.getSnapshot()).toBe("ended");
    expect(room.stateSends.slice(sends).map((s) => s.type)).toEqual(["org.matrix.msc3401.call.member"]);
  });

  it("'Cannot enter call in the {state} state' unless the feed is initialised (or uninitialised, which initialises it)", async () => {
    const room = new GroupRoom();
    const alice = room.add("@alice:hs", "A1");
    await alice.call.enter();
    await expect(alice.call.enter()).rejects.toThrow("Cannot enter call in the entered state");
    await alice.call.terminate();
    await expect(alice.call.enter()).rejects.toThrow("Cannot enter call in the ended state");
  });

  it("no_user_media when the local feed cannot be captured, back to uninitialised", async () => {
    const room = new GroupRoom();
    const alice = room.add("@alice:hs", "A1");
    alice.platform.mediaDevices.failUserMedia = new Error("NotAllowedError");
    const errors: GroupCallError[] = [];
    alice.call.events.on("error", (e) => errors.push(e));
    await expect(alice.call.enter()).rejects.toThrow();
    expect(errors.map((e) => e.code)).toEqual(["no_user_media"]);
    expect(alice.call.state.getSnapshot()).toBe("local_call_feed_uninitialized");
  });

  it("announces our device (expires in 1 hour, feeds) and re-sends it at 3/4 of the hour", async () => {
    const room = new GroupRoom({ "m.type": "m.voice", "m.intent": "m.prompt" });
    const alice = room.add("@alice:hs", "A1", "SA");
    await alice.call.enter();
    expect(alice.platform.mediaDevices.requests).toEqual([{ audio: true, video: false }]);
    expect(room.memberState.get("@alice:hs")).toEqual(
      member([
        {
          device_id: "A1",
          session_id: "SA",
          expires_ts: NOW + 3_600_000,
          feeds: [{ purpose: "m.usermedia" }],
        },
      ]),
    );
    const sends = room.stateSends.length;
    await room.scheduler.advance(2_700_000 - 1);
    expect(room.stateSends.length).toBe(sends);
    await room.scheduler.advance(1);
    expect(room.stateSends.length).toBe(sends + 1);
    await alice.call.leave();
    expect(room.memberState.get("@alice:hs")).toEqual({ "m.calls": [] });
  });
});

describe("mesh calls", () => {
  it("connects every pair of three members; the higher id calls; to-device events carry device and session ids", async () => {
    const room = new GroupRoom();
    const members = [room.add("@alice:hs", "A1"), room.add("@bob:hs", "B1"), room.add("@carol:hs", "C1")];
    for (const m of members) await m.call.enter();
    await room.scheduler.advance(3_000);
    for (const m of members) {
      expect([...m.call.calls.getSnapshot().keys()].sort()).toEqual(
        members
          .filter((o) => o !== m)
          .map((o) => `${o.userId}|${o.deviceId}`)
          .sort(),
      );
      for (const call of m.call.calls.getSnapshot().values())
        expect(call.state.getSnapshot()).toBe("connected");
    }
    const [alice, bob, carol] = members;
    // alice is lowest: she never invites; carol invites both.
    expect(alice?.toDevice.filter((e) => e.type === "m.call.invite")).toEqual([]);
    expect(
      carol?.toDevice
        .filter((e) => e.type === "m.call.invite")
        .map((e) => e.userId)
        .sort(),
    ).toEqual(["@alice:hs", "@bob:hs"]);
    const inviteToAlice = bob?.toDevice.find((e) => e.type === "m.call.invite");
    expect(inviteToAlice?.content).toMatchObject({
      conf_id: GROUP_ID,
      device_id: "B1",
      sender_session_id: "session-B1",
      dest_session_id: "session-A1",
      invitee: "@alice:hs",
      version: "1",
    });
  });

  it("switches the camera on every peer connection by replaceTrack, without renegotiating", async () => {
    const room = new GroupRoom();
    const members = [room.add("@alice:hs", "A1"), room.add("@bob:hs", "B1"), room.add("@carol:hs", "C1")];
    for (const m of members) await m.call.enter();
    await room.scheduler.advance(3_000);
    const bob = members[1];
    if (!bob) throw new Error("no bob");
    const negotiations = (): number => bob.toDevice.filter((e) => e.type === "m.call.negotiate").length;
    const before = negotiations();
    const old = bob.call.localFeed?.stream.getVideoTracks()[0];

    await bob.call.switchInputDevice("video", "cam-2");
    await flush();

    const cam = bob.call.localFeed?.stream.getVideoTracks()[0];
    expect(cam).toBeDefined();
    expect(cam).not.toBe(old);
    expect(bob.platform.mediaDevices.live()).not.toContain(old);
    // Both of bob's peer connections send the new camera on their existing sender.
    expect(bob.platform.peers).toHaveLength(2);
    for (const peer of bob.platform.peers)
      expect(peer.getTransceivers().map((t) => t.sender.track)).toContain(cam);
    expect(negotiations()).toBe(before);
    for (const call of bob.call.calls.getSnapshot().values())
      expect(call.state.getSnapshot()).toBe("connected");
  });

  it("shares the screen with every peer, and with a member who joins while it runs; stopping removes it", async () => {
    const room = new GroupRoom();
    const members = [room.add("@alice:hs", "A1"), room.add("@bob:hs", "B1"), room.add("@carol:hs", "C1")];
    for (const m of members) await m.call.enter();
    await room.scheduler.advance(3_000);
    const [alice, bob, carol] = members;
    if (!alice || !bob || !carol) throw new Error("no members");
    const screenFrom = (m: typeof bob, userId: string) =>
      [...m.call.calls.getSnapshot().values()]
        .filter((c) => c.opponentUserId === userId)
        .map((c) => c.media.remoteFeed("m.screenshare"))[0];

    await bob.call.setScreensharing(true);
    await room.scheduler.advance(1_000);
    expect(bob.call.localScreenshareFeed.getSnapshot()?.purpose).toBe("m.screenshare");
    for (const m of [alice, carol]) expect(screenFrom(m, "@bob:hs")?.stream.getVideoTracks()).toHaveLength(1);
    // The member state announces the screen feed.
    const bobState = room.memberState.get("@bob:hs") as { "m.calls": Array<{ "m.devices": unknown[] }> };
    expect(bobState["m.calls"][0]?.["m.devices"][0]).toMatchObject({
      feeds: [{ purpose: "m.usermedia" }, { purpose: "m.screenshare" }],
    });

    const dave = room.add("@dave:hs", "D1");
    await dave.call.enter();
    await room.scheduler.advance(3_000);
    expect(screenFrom(dave, "@bob:hs")?.stream.getVideoTracks()).toHaveLength(1);

    await bob.call.setScreensharing(false);
    await room.scheduler.advance(1_000);
    for (const m of [alice, carol, dave]) expect(screenFrom(m, "@bob:hs")).toBeUndefined();
    expect(bob.platform.mediaDevices.live().filter((t) => t.kind === "video")).toHaveLength(1);
    expect(bob.call.localScreenshareFeed.getSnapshot()).toBeUndefined();
    for (const call of bob.call.calls.getSnapshot().values())
      expect(call.state.getSnapshot()).toBe("connected");
  });

  it("drops to-device events without a device id or with another destination session", async () => {
    const room = new GroupRoom();
    const alice = room.add("@alice:hs", "A1");
    const bob = room.add("@bob:hs", "B1");
    await alice.call.enter();
    await bob.call.enter();
    await room.scheduler.advance(3_000);
    const invite = bob.toDevice.find((e) => e.type === "m.call.invite");
    if (!invite) throw new Error("no invite");
    await alice.call.leave();
    await alice.call.enter();
    await flush();
    const before = alice.call.calls.getSnapshot().size;
    const { device_id: _d, ...noDevice } = { ...invite.content, call_id: "x1" };
    await alice.call.onToDevice("@bob:hs", "m.call.invite", noDevice);
    await alice.call.onToDevice("@bob:hs", "m.call.invite", {
      ...invite.content,
      call_id: "x2",
      dest_session_id: "stale",
    });
    expect([...alice.call.calls.getSnapshot().values()].map((c) => c.callId)).not.toContain("x1");
    expect([...alice.call.calls.getSnapshot().values()].map((c) => c.callId)).not.toContain("x2");
    expect(alice.call.calls.getSnapshot().size).toBe(before);
  });

  it("holds an invite that comes before the caller's membership and answers it once the membership arrives", async () => {
    const room = new GroupRoom();
    const alice = room.add("@alice:hs", "A1");
    const bob = room.add("@bob:hs", "B1");
    await alice.call.enter();
    // Alice's sync has not brought bob's membership yet (Synapse sent his to-device invite first).
    room.joined.delete("@bob:hs");
    await bob.call.enter();
    await room.scheduler.advance(1_000);
    expect(bob.toDevice.filter((e) => e.type === "m.call.invite")).toHaveLength(1);
    expect(alice.call.calls.getSnapshot().size).toBe(0);
    expect(alice.toDevice).toEqual([]);
    // The membership arrives: the held invite is answered, well before bob's 15 s timeout and retry.
    room.joined.add("@bob:hs");
    alice.call.onMemberStateChanged();
    await room.scheduler.advance(2_000);
    const calls = [...alice.call.calls.getSnapshot().values()];
    expect(calls.map((c) => c.state.getSnapshot())).toEqual(["connected"]);
    expect(calls[0]?.callId).toBe(bob.toDevice.find((e) => e.type === "m.call.invite")?.content.call_id);
    expect(alice.toDevice.map((e) => e.type)).toContain("m.call.answer");
    expect(bob.toDevice.filter((e) => e.type === "m.call.invite")).toHaveLength(1);
  });

  it("sends no media to a device without a valid membership (CVE-2023-29529): its invite is ignored and a lapsed one is hung up", async () => {
    const room = new GroupRoom();
    const alice = room.add("@alice:hs", "A1");
    const bob = room.add("@bob:hs", "B1");
    await alice.call.enter();
    await bob.call.enter();
    await room.scheduler.advance(3_000);
    expect(alice.call.calls.getSnapshot().size).toBe(1);
    // Bob leaves the room: his membership no longer counts.
    room.joined.delete("@bob:hs");
    alice.call.onMemberStateChanged();
    await flush();
    expect(alice.call.calls.getSnapshot().size).toBe(0);
    // An invite from a device with no membership never gets an answer.
    const mallory = room.add("@mallory:hs", "M1");
    await mallory.call.initLocalCallFeed();
    await alice.call.onToDevice("@mallory:hs", "m.call.invite", {
      call_id: "evil",
      party_id: "M1",
      version: "1",
      conf_id: GROUP_ID,
      device_id: "M1",
      sender_session_id: "session-M1",
      dest_session_id: alice.call.sessionId,
      offer: { type: "offer", sdp: JSON.stringify({ ufrag: "x", media: [] }) },
    });
    expect(alice.call.calls.getSnapshot().size).toBe(0);
    expect(alice.toDevice.filter((e) => e.userId === "@mallory:hs")).toEqual([]);
  });

  it("drops devices when their membership expires", async () => {
    const room = new GroupRoom();
    const alice = room.add("@alice:hs", "A1");
    room.joined.add("@bob:hs");
    room.setMemberState(
      "@bob:hs",
      member([device({ device_id: "B1", session_id: "SB", expires_ts: NOW + 60_000 })]),
    );
    await alice.call.initLocalCallFeed();
    alice.call.onMemberStateChanged();
    expect(alice.call.participants.getSnapshot().map((p) => p.deviceId)).toEqual(["B1"]);
    await room.scheduler.advance(60_000);
    expect(alice.call.participants.getSnapshot()).toEqual([]);
  });

  it("retries outgoing calls every 5 s, at most 3 times per device, and reports place_call_failed", async () => {
    const room = new GroupRoom();
    const bob = room.add("@bob:hs", "B1");
    room.joined.add("@alice:hs");
    room.setMemberState(
      "@alice:hs",
      member([device({ device_id: "A1", session_id: "SA", expires_ts: NOW + 3_600_000 })]),
    );
    const errors: string[] = [];
    bob.call.events.on("error", (e) => errors.push(e.message));
    await bob.call.enter();
    // Nobody answers: each call is dropped after the 15 s participant timeout.
    const invites = () => bob.toDevice.filter((e) => e.type === "m.call.invite").length;
    expect(invites()).toBe(1);
    const first = bob.call.calls.getSnapshot().get("@alice:hs|A1");
    await room.scheduler.advance(14_999);
    expect(invites()).toBe(1);
    await room.scheduler.advance(1);
    expect(first?.state.getSnapshot()).toBe("ended");
    expect(first?.hangupReason).toBe("invite_timeout");
    // The retry loop (every 5 s) replaces it: three retries, then no more.
    expect(invites()).toBe(2);
    await room.scheduler.advance(120_000);
    expect(invites()).toBe(4);
    expect(errors).toEqual([]);
    // A send that fails reports the spec's message.
    room.unknownDevices.add("A1");
    const carol = room.add("@carol:hs", "C1");
    carol.call.events.on("error", (e) => errors.push(e.message));
    await carol.call.enter();
    await flush();
    expect(errors).toContain("No device found for @alice:hs");
  });

  it("place_call_failed: 'Failed to place call to {user}'", async () => {
    const room = new GroupRoom();
    const bob = room.add("@bob:hs", "B1");
    room.joined.add("@alice:hs");
    room.setMemberState(
      "@alice:hs",
      member([device({ device_id: "A1", session_id: "SA", expires_ts: NOW + 3_600_000 })]),
    );
    const errors: GroupCallError[] = [];
    bob.call.events.on("error", (e) => errors.push(e));
    bob.platform.failCreatePeer = new Error("bad");
    await bob.call.enter();
    await flush();
    expect(errors.length).toBeGreaterThan(0);
    for (const e of errors)
      expect([e.code, e.message]).toEqual(["place_call_failed", "Failed to place call to @alice:hs"]);
  });

  it("push-to-talk starts muted and transmits at most 20 s", async () => {
    const room = new GroupRoom({ "m.type": "m.voice", "m.intent": "m.room", "io.element.ptt": true });
    const alice = room.add("@alice:hs", "A1");
    await alice.call.enter();
    expect(alice.call.microphoneMuted.getSnapshot()).toBe(true);
    alice.call.setMicrophoneMuted(false);
    expect(alice.call.localFeed?.stream.getAudioTracks()[0]?.enabled).toBe(true);
    await room.scheduler.advance(19_999);
    expect(alice.call.microphoneMuted.getSnapshot()).toBe(false);
    await room.scheduler.advance(1);
    expect(alice.call.microphoneMuted.getSnapshot()).toBe(true);
    expect(alice.call.localFeed?.stream.getAudioTracks()[0]?.enabled).toBe(false);
  });

  it("picks the active speaker every second and collects stats every 10 s", async () => {
    const room = new GroupRoom();
    const alice = room.add("@alice:hs", "A1");
    const bob = room.add("@bob:hs", "B1");
    await alice.call.enter();
    await bob.call.enter();
    await room.scheduler.advance(3_000);
    alice.platform.level = -30;
    await room.scheduler.advance(1_000);
    await room.scheduler.advance(1_000);
    expect(alice.call.activeSpeaker.getSnapshot()?.userId).toBe("@bob:hs");
    await room.scheduler.advance(10_000);
    expect([...alice.call.stats.getSnapshot().keys()]).toEqual(["@bob:hs|B1"]);
    await alice.call.terminate(false);
    await bob.call.terminate(false);
    expect(room.scheduler.pending()).toEqual([]);
  });
});
