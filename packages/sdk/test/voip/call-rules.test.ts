/**
 * Rules around the 1:1 call (SPEC §4, §5, §8): glare (the lower call id
 * wins), when invites are ignored, the error messages, version 0 peers,
 * transfer, asserted identity, and the hangup reasons.
 */
import { describe, expect, it } from "vitest";
import type { Call } from "../../src/voip/call/Call";
import { inviteIgnoreReason } from "../../src/voip/call/router";
import { HANGUP_REASONS } from "../../src/voip/call/types";
import type { CallError } from "../../src/voip/call/types";
import { flush, invite, ROOM, setup } from "./harness";

const me = { userId: "@bob:hs", deviceId: "BOB" };

describe("invite validity", () => {
  it("rings a fresh invite for us", () => {
    expect(inviteIgnoreReason(invite("@alice:hs", { invitee: "@bob:hs" }, 56_999), me, new Set())).toBeNull();
  });
  it("ignores an invite from this same device", () => {
    expect(inviteIgnoreReason(invite("@bob:hs", { party_id: "BOB" }), me, new Set())).toBe("own_device");
    expect(inviteIgnoreReason(invite("@bob:hs", { party_id: "BOB_PHONE" }), me, new Set())).toBeNull();
  });
  it("ignores an invite older than its lifetime minus 3 s", () => {
    expect(inviteIgnoreReason(invite("@alice:hs", {}, 57_001), me, new Set())).toBe("expired");
    expect(inviteIgnoreReason(invite("@alice:hs", { lifetime: 10_000 }, 7_001), me, new Set())).toBe(
      "expired",
    );
  });
  it("ignores an invite already ended", () => {
    expect(inviteIgnoreReason(invite("@alice:hs", {}), me, new Set(["c1"]))).toBe("already_ended");
  });
  it("ignores an invite addressed to another invitee", () => {
    expect(inviteIgnoreReason(invite("@alice:hs", { invitee: "@carol:hs" }), me, new Set())).toBe(
      "other_invitee",
    );
  });
  it("never rings an invite whose hangup is in the same batch", async () => {
    const { bob } = setup();
    const rang: Call[] = [];
    bob.router.events.on("incoming", (c) => rang.push(c));
    await bob.router.handleRoomEvents(ROOM, [
      invite("@alice:hs", {}),
      {
        type: "m.call.hangup",
        sender: "@alice:hs",
        content: { call_id: "c1", party_id: "PEER", version: "1" },
      },
    ]);
    expect(rang).toEqual([]);
    expect(bob.router.calls.getSnapshot()).toEqual([]);
  });
  it("ignores invites via the router too (expired, other invitee)", async () => {
    const { bob } = setup();
    await bob.router.handleRoomEvents(ROOM, [invite("@alice:hs", { call_id: "old" }, 58_000)]);
    await bob.router.handleRoomEvents(ROOM, [invite("@alice:hs", { call_id: "x", invitee: "@carol:hs" })]);
    expect(bob.router.calls.getSnapshot()).toEqual([]);
  });
});

describe("glare", () => {
  async function glare(aliceRandom: number, bobRandom: number): Promise<ReturnType<typeof setup>> {
    const env = setup();
    const { alice, bob, scheduler } = env;
    alice.hold = true;
    bob.hold = true;
    // Call ids are the timestamp plus random characters: pick them through the random source.
    const random = scheduler.random.bind(scheduler);
    scheduler.random = () => aliceRandom;
    await alice.router.placeCall(ROOM, bob.userId);
    scheduler.random = () => bobRandom;
    await bob.router.placeCall(ROOM, alice.userId);
    scheduler.random = random;
    alice.hold = false;
    bob.hold = false;
    const aliceInvite = alice.sentOf("m.call.invite")[0];
    const bobInvite = bob.sentOf("m.call.invite")[0];
    if (!aliceInvite || !bobInvite) throw new Error("no invites");
    await Promise.all([
      bob.router.handleRoomEvents(ROOM, [
        { type: aliceInvite.type, sender: alice.userId, content: aliceInvite.content },
      ]),
      alice.router.handleRoomEvents(ROOM, [
        { type: bobInvite.type, sender: bob.userId, content: bobInvite.content },
      ]),
    ]);
    await scheduler.advance(3_000);
    return env;
  }

  it("the lower call id wins on both sides, whoever holds it", async () => {
    for (const [a, b] of [
      [0.1, 0.9],
      [0.9, 0.1],
    ] as const) {
      const { alice, bob } = await glare(a, b);
      const aliceCalls = alice.router.calls.getSnapshot();
      const bobCalls = bob.router.calls.getSnapshot();
      expect(aliceCalls).toHaveLength(1);
      expect(bobCalls).toHaveLength(1);
      const winner = [alice.sentOf("m.call.invite")[0], bob.sentOf("m.call.invite")[0]]
        .map((s) => s?.content.call_id ?? "")
        .sort()[0];
      expect(aliceCalls[0]?.callId).toBe(winner);
      expect(bobCalls[0]?.callId).toBe(winner);
      expect(aliceCalls[0]?.state.getSnapshot()).toBe("connected");
      expect(bobCalls[0]?.state.getSnapshot()).toBe("connected");
      const hangups = [...alice.sentOf("m.call.hangup"), ...bob.sentOf("m.call.hangup")];
      expect(hangups.map((h) => h.content.reason)).toEqual(["replaced", "replaced"]);
      expect(hangups.every((h) => h.content.call_id !== winner)).toBe(true);
    }
  });
});

describe("calling someone who is ringing us", () => {
  it("answers their ringing call instead of placing a second one", async () => {
    const { alice, bob, scheduler } = setup();
    await alice.router.placeCall(ROOM, bob.userId);
    const aliceInvite = alice.sentOf("m.call.invite")[0];
    if (!aliceInvite) throw new Error("no invite");
    await bob.router.handleRoomEvents(ROOM, [
      { type: aliceInvite.type, sender: alice.userId, content: aliceInvite.content },
    ]);
    const [incoming] = bob.router.calls.getSnapshot();
    expect(incoming?.state.getSnapshot()).toBe("ringing");

    const placed = await bob.router.placeCall(ROOM, alice.userId, { video: false });
    await scheduler.advance(3_000);
    expect(placed).toBe(incoming);
    expect(bob.router.calls.getSnapshot()).toEqual([incoming]);
    expect(bob.sentOf("m.call.invite")).toEqual([]);
    expect(bob.sentOf("m.call.answer")).toHaveLength(1);
    expect(placed.state.getSnapshot()).toBe("connected");
    expect(alice.router.calls.getSnapshot()[0]?.state.getSnapshot()).toBe("connected");
  });
});

describe("call errors, in the spec's words", () => {
  it("'Couldn't start capturing media! ...' and no_user_media when the microphone fails", async () => {
    const { alice, bob } = setup();
    alice.platform.mediaDevices.failUserMedia = new Error("NotAllowedError");
    const errors: CallError[] = [];
    const placing = alice.router.placeCall(ROOM, bob.userId);
    const call = alice.router.calls.getSnapshot()[0] as Call;
    call.events.on("error", (e) => errors.push(e));
    await placing;
    expect(errors.map((e) => [e.code, e.message])).toEqual([
      [
        "no_user_media",
        "Couldn't start capturing media! Is your microphone set up and does this app have permission?",
      ],
    ]);
    expect(call.state.getSnapshot()).toBe("ended");
    expect(call.hangupReason).toBe("no_user_media");
    expect(alice.sent).toEqual([]);
  });

  it("'Couldn't start call! Invalid ICE server configuration.' when the peer connection cannot be made", async () => {
    const { alice, bob } = setup();
    alice.platform.failCreatePeer = new Error("InvalidAccessError: bad url");
    const placing = alice.router.placeCall(ROOM, bob.userId);
    const call = alice.router.calls.getSnapshot()[0] as Call;
    const errors: CallError[] = [];
    call.events.on("error", (e) => errors.push(e));
    await placing;
    expect(errors.map((e) => e.message)).toEqual(["Couldn't start call! Invalid ICE server configuration."]);
    expect(call.state.getSnapshot()).toBe("ended");
  });

  it("'Failed to get local offer!' and local_offer_failed when the offer cannot be made", async () => {
    const { alice, bob } = setup();
    const create = alice.platform.createPeerConnection.bind(alice.platform);
    alice.platform.createPeerConnection = (config, handlers) => {
      const peer = create(config, handlers);
      peer.createOffer = () => Promise.reject(new Error("boom"));
      return peer;
    };
    const placing = alice.router.placeCall(ROOM, bob.userId);
    const call = alice.router.calls.getSnapshot()[0] as Call;
    const errors: CallError[] = [];
    call.events.on("error", (e) => errors.push(e));
    await placing;
    expect(errors.map((e) => [e.code, e.message])).toEqual([
      ["local_offer_failed", "Failed to get local offer!"],
    ]);
    expect(call.hangupReason).toBe("local_offer_failed");
  });

  it("an inbound call whose microphone fails tells the caller no_user_media", async () => {
    const { alice, bob } = setup();
    await alice.router.placeCall(ROOM, bob.userId);
    await flush();
    const inbound = bob.router.calls.getSnapshot()[0] as Call;
    bob.platform.mediaDevices.failUserMedia = new Error("NotFoundError");
    await inbound.answer();
    await flush();
    expect(bob.sentOf("m.call.hangup")[0]?.content.reason).toBe("no_user_media");
    expect(alice.router.calls.getSnapshot()).toEqual([]);
  });

  it("knows every hangup reason of SPEC §4", () => {
    expect(HANGUP_REASONS).toEqual([
      "user_hangup",
      "local_offer_failed",
      "no_user_media",
      "unknown_devices",
      "send_invite",
      "create_answer",
      "create_offer",
      "send_answer",
      "set_remote_description",
      "set_local_description",
      "answered_elsewhere",
      "ice_failed",
      "invite_timeout",
      "replaced",
      "signalling_timeout",
      "user_busy",
      "transferred",
      "new_session",
    ]);
  });

  it("passes a remote hangup reason on (user_busy), and an unknown one as user_hangup", async () => {
    const { alice, bob } = setup();
    await alice.router.placeCall(ROOM, bob.userId);
    await flush();
    const inbound = bob.router.calls.getSnapshot()[0] as Call;
    const outbound = alice.router.calls.getSnapshot()[0] as Call;
    await inbound.hangup("user_busy");
    await flush();
    expect(outbound.hangupReason).toBe("user_busy");
    const other = setup();
    await other.alice.router.placeCall(ROOM, other.bob.userId);
    await flush();
    const ring = other.bob.router.calls.getSnapshot()[0] as Call;
    await ring.handleEvent({
      type: "m.call.hangup",
      sender: other.alice.userId,
      content: { call_id: ring.callId, party_id: "ALICE", version: "1", reason: "gremlins" },
    });
    expect(ring.hangupReason).toBe("user_hangup");
  });
});

describe("version 0 peers, transfer and identity", () => {
  it("understands a version 0 invite (no party_id): answers, rejects with a hangup, never renegotiates", async () => {
    const { alice, bob } = setup();
    await alice.router.placeCall(ROOM, bob.userId);
    const sent = alice.sentOf("m.call.invite")[0];
    if (!sent) throw new Error("no invite");
    const { party_id: _p, ...v0 } = { ...sent.content, call_id: "v0call", version: 0 };
    const bobSecond = setup().bob;
    await bobSecond.router.handleRoomEvents(ROOM, [
      { type: "m.call.invite", sender: alice.userId, content: v0 },
    ]);
    const call = bobSecond.router.calls.getSnapshot()[0] as Call;
    expect(call.state.getSnapshot()).toBe("ringing");
    expect(call.canRenegotiate).toBe(false);
    await call.handleEvent({
      type: "m.call.candidates",
      sender: alice.userId,
      content: {
        call_id: "v0call",
        version: 0,
        candidates: [{ candidate: "candidate:0 1 udp 1 10.0.0.1 1 typ host" }],
      },
    });
    expect(bobSecond.platform.peer.remoteCandidates).toHaveLength(1);
    await call.reject();
    expect(bobSecond.sentOf("m.call.reject")).toEqual([]);
    expect(bobSecond.sentOf("m.call.hangup")[0]?.content.reason).toBe("user_hangup");
  });

  it("transfers with m.call.replaces and hangs up as transferred; the other side is asked to move", async () => {
    const { alice, bob, scheduler } = setup();
    await alice.router.placeCall(ROOM, bob.userId);
    await flush();
    const inbound = bob.router.calls.getSnapshot()[0] as Call;
    const outbound = alice.router.calls.getSnapshot()[0] as Call;
    await inbound.answer({ audio: true, video: false });
    await scheduler.advance(2_000);
    const asked: unknown[] = [];
    inbound.events.on("transferRequested", (c) => asked.push(c));
    await outbound.transfer("@carol:hs");
    await flush();
    expect(alice.sentOf("m.call.replaces")[0]?.content.target_user).toEqual({ id: "@carol:hs" });
    expect(asked).toHaveLength(1);
    expect(inbound.hangupReason).toBe("transferred");
  });

  it("takes the opponent's asserted identity", async () => {
    const { alice, bob, scheduler } = setup();
    await alice.router.placeCall(ROOM, bob.userId);
    await flush();
    const inbound = bob.router.calls.getSnapshot()[0] as Call;
    await inbound.answer({ audio: true, video: false });
    await scheduler.advance(2_000);
    const outbound = alice.router.calls.getSnapshot()[0] as Call;
    await inbound.sendAssertedIdentity({ id: "@pbx:hs", display_name: "Front desk" });
    await flush();
    expect(outbound.assertedIdentity.getSnapshot()).toEqual({ id: "@pbx:hs", display_name: "Front desk" });
  });
});
