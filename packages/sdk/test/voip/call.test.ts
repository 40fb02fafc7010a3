/**
 * The 1:1 call state machine over fake peers and fake time: placing,
 * ringing, answering, connecting, hanging up, rejecting, and what each side
 * sends (SPEC §3, §4, §8).
 */
import { describe, expect, it } from "vitest";
import { Call } from "../../src/voip/call/Call";
import { CallRouter } from "../../src/voip/call/router";
import type { CallState } from "../../src/voip/call/types";
import { flush, ROOM, setup } from "./harness";
import type { Side } from "./harness";

function states(call: Call): CallState[] {
  const seen: CallState[] = [call.state.getSnapshot()];
  call.state.subscribe((s) => seen.push(s));
  return seen;
}

async function ringing(bob: Side): Promise<Call> {
  await flush();
  const call = bob.router.calls.getSnapshot()[0];
  if (!call) throw new Error("bob has no call");
  expect(call.state.getSnapshot()).toBe("ringing");
  return call;
}

describe("1:1 call", () => {
  it("goes fledgling → wait_local_media → create_offer → invite_sent → connecting → connected, and the callee ringing → … → connected", async () => {
    const { scheduler, alice, bob } = setup();
    const incoming: Call[] = [];
    bob.router.events.on("incoming", (c) => incoming.push(c));
    const placing = alice.router.placeCall(ROOM, bob.userId, { video: true });
    const outbound = alice.router.calls.getSnapshot()[0] as Call;
    const seenOut = states(outbound);
    await placing;
    const inbound = await ringing(bob);
    expect(incoming).toEqual([inbound]);
    const seenIn = states(inbound);
    await inbound.answer({ audio: true, video: true });
    await scheduler.advance(2_000);
    expect(outbound.state.getSnapshot()).toBe("connected");
    expect(inbound.state.getSnapshot()).toBe("connected");
    expect(seenOut).toEqual(["wait_local_media", "create_offer", "invite_sent", "connecting", "connected"]);
    expect(seenIn).toEqual(["ringing", "wait_local_media", "create_answer", "connecting", "connected"]);
    // The caller chose bob's answer.
    expect(alice.sentOf("m.call.select_answer")[0]?.content.selected_party_id).toBe("BOB");
    // Each side sees the other's usermedia feed.
    expect(outbound.feeds.getSnapshot().map((f) => [f.isLocal, f.purpose])).toEqual([
      [true, "m.usermedia"],
      [false, "m.usermedia"],
    ]);
    await outbound.hangup();
    await flush();
    expect(outbound.state.getSnapshot()).toBe("ended");
    expect(inbound.state.getSnapshot()).toBe("ended");
    expect(inbound.hangupReason).toBe("user_hangup");
    expect(inbound.hangupParty).toBe("remote");
    // One owner: no timer, no live track and no open peer left.
    expect(scheduler.pending()).toEqual([]);
    expect(alice.platform.mediaDevices.live()).toEqual([]);
    expect(bob.platform.mediaDevices.live()).toEqual([]);
    expect(alice.platform.peer.closed && bob.platform.peer.closed).toBe(true);
  });

  it('sends call_id, party_id, seq, lifetime, invitee and version "1" on the invite, and per-stream metadata', async () => {
    const { alice, bob } = setup();
    await alice.router.placeCall(ROOM, bob.userId);
    const inviteEvent = alice.sentOf("m.call.invite")[0];
    const c = inviteEvent?.content;
    expect(c).toMatchObject({
      party_id: "ALICE",
      version: "1",
      seq: 0,
      lifetime: 60_000,
      invitee: "@bob:hs",
    });
    expect(c?.call_id).toMatch(/^1700000000000[A-Za-z0-9]{16}$/);
    const streamId = alice.router.calls.getSnapshot()[0]?.feeds.getSnapshot()[0]?.stream.id ?? "";
    expect(c?.sdp_stream_metadata?.[streamId]).toEqual({
      purpose: "m.usermedia",
      audio_muted: false,
      video_muted: true,
    });
    expect(c?.["org.matrix.msc3077.sdp_stream_metadata"]).toEqual(c?.sdp_stream_metadata);
    expect(c?.capabilities).toEqual({ "m.call.transferee": false, "m.call.dtmf": true });
  });

  it("batches candidates: one m.call.candidates 2000 ms after the invite (outbound), 500 ms after the answer (inbound)", async () => {
    const { scheduler, alice, bob } = setup();
    alice.hold = true;
    await alice.router.placeCall(ROOM, bob.userId);
    expect(alice.sentOf("m.call.candidates")).toHaveLength(0);
    await scheduler.advance(1_999);
    expect(alice.sentOf("m.call.candidates")).toHaveLength(0);
    await scheduler.advance(1);
    const batch = alice.sentOf("m.call.candidates");
    expect(batch).toHaveLength(1);
    expect(batch[0]?.content.candidates?.map((c) => c.candidate.split(" typ ")[1])).toEqual([
      "host",
      "srflx",
    ]);
    expect(batch[0]?.content.seq).toBe(1);
    const inbound = bob.router.calls.getSnapshot()[0];
    bob.hold = true;
    const sent = alice.sentOf("m.call.invite")[0];
    if (!sent) throw new Error("no invite");
    await bob.router.handleRoomEvents(ROOM, [
      { type: sent.type, sender: alice.userId, content: sent.content },
    ]);
    const call = bob.router.calls.getSnapshot()[0] as Call;
    expect(inbound).toBeUndefined();
    await call.answer({ audio: true, video: false });
    expect(bob.sentOf("m.call.candidates")).toHaveLength(0);
    await scheduler.advance(499);
    expect(bob.sentOf("m.call.candidates")).toHaveLength(0);
    await scheduler.advance(1);
    expect(bob.sentOf("m.call.candidates")).toHaveLength(1);
  });

  it("rings and ends with invite_timeout when the lifetime expires while ringing, minus the age it arrived with", async () => {
    const { scheduler, alice, bob } = setup();
    alice.hold = true;
    await alice.router.placeCall(ROOM, bob.userId);
    const sent = alice.sentOf("m.call.invite")[0];
    if (!sent) throw new Error("no invite");
    await bob.router.handleRoomEvents(ROOM, [
      { type: sent.type, sender: alice.userId, content: sent.content, ageMs: 10_000 },
    ]);
    const call = await ringing(bob);
    await scheduler.advance(49_999);
    expect(call.state.getSnapshot()).toBe("ringing");
    await scheduler.advance(1);
    expect(call.state.getSnapshot()).toBe("ended");
    expect(call.hangupReason).toBe("invite_timeout");
    expect(bob.sent).toEqual([]);
  });

  it("hangs up an unanswered outbound call with invite_timeout after the lifetime", async () => {
    const { scheduler, alice, bob } = setup();
    alice.hold = true;
    await alice.router.placeCall(ROOM, bob.userId);
    const call = alice.router.calls.getSnapshot()[0] as Call;
    await scheduler.advance(59_999);
    expect(call.state.getSnapshot()).toBe("invite_sent");
    await scheduler.advance(1);
    expect(call.state.getSnapshot()).toBe("ended");
    expect(alice.sentOf("m.call.hangup")[0]?.content.reason).toBe("invite_timeout");
  });

  it("rejects: the callee sends m.call.reject and the caller in invite_sent ends", async () => {
    const { alice, bob } = setup();
    await alice.router.placeCall(ROOM, bob.userId);
    const outbound = alice.router.calls.getSnapshot()[0] as Call;
    const inbound = await ringing(bob);
    await inbound.reject();
    await flush();
    expect(bob.sentOf("m.call.reject")).toHaveLength(1);
    expect(inbound.state.getSnapshot()).toBe("ended");
    expect(outbound.state.getSnapshot()).toBe("ended");
    expect(outbound.hangupParty).toBe("remote");
  });

  it("cannot reject a call that is not ringing", async () => {
    const { alice, bob } = setup();
    await alice.router.placeCall(ROOM, bob.userId);
    const outbound = alice.router.calls.getSnapshot()[0] as Call;
    await expect(outbound.reject()).rejects.toThrow("Cannot reject a call in the invite_sent state");
  });

  it("honours a received reject only in invite_sent or ringing, or fledgling when inbound", async () => {
    const { alice, bob } = setup();
    await alice.router.placeCall(ROOM, bob.userId);
    const outbound = alice.router.calls.getSnapshot()[0] as Call;
    const inbound = await ringing(bob);
    await inbound.answer({ audio: true, video: false });
    await flush();
    expect(outbound.state.getSnapshot()).not.toBe("invite_sent");
    const before = outbound.state.getSnapshot();
    await outbound.handleEvent({
      type: "m.call.reject",
      sender: bob.userId,
      content: { call_id: outbound.callId, party_id: "BOB", version: "1" },
    });
    expect(outbound.state.getSnapshot()).toBe(before);
    // Ringing: a reject from another of our own devices ends it.
    const second = setup();
    await second.alice.router.placeCall(ROOM, second.bob.userId);
    const ring = await ringing(second.bob);
    await ring.handleEvent({
      type: "m.call.reject",
      sender: second.bob.userId,
      content: { call_id: ring.callId, party_id: "BOB_PHONE", version: "1" },
    });
    expect(ring.state.getSnapshot()).toBe("ended");
  });

  it("cannot be answered with neither audio nor video", async () => {
    const { alice, bob } = setup();
    await alice.router.placeCall(ROOM, bob.userId);
    const inbound = await ringing(bob);
    await expect(inbound.answer({ audio: false, video: false })).rejects.toThrow(
      "A call cannot be answered with neither audio nor video",
    );
    expect(inbound.state.getSnapshot()).toBe("ringing");
  });

  it("needs a device id", async () => {
    const { alice, bob, scheduler } = setup();
    const router = new CallRouter({
      userId: alice.userId,
      deviceId: undefined,
      platform: alice.platform,
      scheduler,
      iceServers: () => [],
      signallerFor: () => ({ send: () => Promise.resolve() }),
    });
    await expect(router.placeCall(ROOM, bob.userId)).rejects.toThrow("A call needs a device id");
    // Nor does an invite ring on a client without one.
    await alice.router.placeCall(ROOM, bob.userId);
    const sent = alice.sentOf("m.call.invite")[0];
    if (!sent) throw new Error("no invite");
    await router.handleRoomEvents(ROOM, [
      { type: sent.type, sender: alice.userId, content: { ...sent.content, invitee: undefined } },
    ]);
    expect(router.calls.getSnapshot()).toEqual([]);
  });

  it("honours a reject that arrives while an inbound call is still fledgling", async () => {
    const { alice, bob, scheduler } = setup();
    alice.hold = true;
    await alice.router.placeCall(ROOM, bob.userId);
    const sent = alice.sentOf("m.call.invite")[0];
    if (!sent) throw new Error("no invite");
    const call = new Call({
      roomId: ROOM,
      userId: bob.userId,
      deviceId: bob.deviceId,
      opponentUserId: alice.userId,
      platform: bob.platform,
      scheduler,
      signaller: { send: () => Promise.resolve() },
      iceServers: () => [],
      callId: sent.content.call_id,
    });
    const init = call.initWithInvite({ type: sent.type, sender: alice.userId, content: sent.content });
    expect(call.state.getSnapshot()).toBe("fledgling");
    await call.handleEvent({
      type: "m.call.reject",
      sender: alice.userId,
      content: { call_id: call.callId, party_id: "ALICE", version: "1" },
    });
    await init;
    expect(call.state.getSnapshot()).toBe("ended");
    expect(call.hangupParty).toBe("remote");
  });

  it("ends answered_elsewhere when the caller selects another device's answer", async () => {
    const { alice, bob } = setup();
    await alice.router.placeCall(ROOM, bob.userId);
    const inbound = await ringing(bob);
    await inbound.handleEvent({
      type: "m.call.select_answer",
      sender: alice.userId,
      content: { call_id: inbound.callId, party_id: "ALICE", version: "1", selected_party_id: "BOB_PHONE" },
    });
    expect(inbound.state.getSnapshot()).toBe("ended");
    expect(inbound.hangupReason).toBe("answered_elsewhere");
  });

  it("ends answered_elsewhere when another of our devices answers the ringing call", async () => {
    const { alice, bob } = setup();
    await alice.router.placeCall(ROOM, bob.userId);
    const inbound = await ringing(bob);
    await inbound.handleEvent({
      type: "m.call.answer",
      sender: bob.userId,
      content: {
        call_id: inbound.callId,
        party_id: "BOB_PHONE",
        version: "1",
        answer: { type: "answer", sdp: "{}" },
      },
    });
    expect(inbound.hangupReason).toBe("answered_elsewhere");
  });

  it("takes the first answer only; later answers and events of other parties are ignored", async () => {
    const { alice, bob } = setup();
    await alice.router.placeCall(ROOM, bob.userId);
    const outbound = alice.router.calls.getSnapshot()[0] as Call;
    const inbound = await ringing(bob);
    await inbound.answer({ audio: true, video: false });
    await flush();
    expect(outbound.opponentPartyId).toBe("BOB");
    await outbound.handleEvent({
      type: "m.call.hangup",
      sender: bob.userId,
      content: { call_id: outbound.callId, party_id: "BOB_PHONE", version: "1", reason: "user_hangup" },
    });
    expect(outbound.state.getSnapshot()).not.toBe("ended");
    expect(alice.sentOf("m.call.select_answer")).toHaveLength(1);
  });
});
