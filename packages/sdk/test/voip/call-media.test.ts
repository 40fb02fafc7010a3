/**
 * Media of a running 1:1 call over fake peers: mute announcements, adding
 * video and screen sharing by perfect negotiation (the inbound side
 * polite), hold and resume, DTMF, speaking detection and stats.
 */
import { describe, expect, it } from "vitest";
import { CallFeed } from "../../src/voip/feed";
import { FakeScheduler } from "../support/fake-scheduler";
import { FakeNetwork, FakeStream, FakeTrack } from "./fakes";
import { connectedPair, flush } from "./harness";

describe("1:1 call media", () => {
  it("announces microphone mute with m.call.sdp_stream_metadata_changed and the other side's feed follows", async () => {
    const { alice, outbound, inbound } = await connectedPair();
    await outbound.media.setMicrophoneMuted(true);
    await flush();
    const changed = alice.sentOf("m.call.sdp_stream_metadata_changed")[0]?.content.sdp_stream_metadata ?? {};
    expect(Object.values(changed)).toEqual([
      { purpose: "m.usermedia", audio_muted: true, video_muted: true },
    ]);
    expect(outbound.media.localFeed()?.stream.getAudioTracks()[0]?.enabled).toBe(false);
    expect(inbound.media.remoteFeed()?.audioMuted).toBe(true);
  });

  it("adds video to a voice call by m.call.negotiate", async () => {
    const { alice, bob, outbound, inbound } = await connectedPair();
    await outbound.media.setVideoMuted(false);
    await flush();
    const negotiate = alice.sentOf("m.call.negotiate")[0];
    expect(negotiate?.content.description?.type).toBe("offer");
    // Offer and answer both carry the lifetime the spec requires.
    const answer = bob.sentOf("m.call.negotiate")[0];
    expect(answer?.content.description?.type).toBe("answer");
    expect([negotiate?.content.lifetime, answer?.content.lifetime]).toEqual([60_000, 60_000]);
    expect(inbound.media.remoteFeed()?.stream.getVideoTracks()).toHaveLength(1);
    expect(inbound.media.remoteFeed()?.videoMuted).toBe(false);
    expect(outbound.state.getSnapshot()).toBe("connected");
  });

  it("shares the screen as a second stream with purpose m.screenshare, and stops", async () => {
    const { bob, outbound, inbound } = await connectedPair();
    await inbound.media.setScreensharing(true);
    await flush();
    expect(bob.sentOf("m.call.negotiate")[0]?.content.description?.type).toBe("offer");
    const screen = outbound.media.remoteFeed("m.screenshare");
    expect(screen?.stream.getVideoTracks()).toHaveLength(1);
    await inbound.media.setScreensharing(false);
    await flush();
    expect(inbound.media.localFeed("m.screenshare")).toBeUndefined();
    expect(bob.platform.mediaDevices.live().filter((t) => t.kind === "video")).toEqual([]);
    // The other side drops the screen's feed: the new metadata no longer names its stream.
    expect(outbound.media.remoteFeed("m.screenshare")).toBeUndefined();
    expect(outbound.media.remoteFeed("m.usermedia")).toBeDefined();
  });

  it("perfect negotiation: crossing offers, the impolite caller keeps its offer and the polite callee rolls back", async () => {
    const { alice, bob, outbound, inbound } = await connectedPair();
    alice.hold = true;
    bob.hold = true;
    await Promise.all([outbound.media.setVideoMuted(false), inbound.media.setScreensharing(true)]);
    await flush();
    const aliceOffer = alice.sentOf("m.call.negotiate")[0];
    const bobOffer = bob.sentOf("m.call.negotiate")[0];
    expect(aliceOffer?.content.description?.type).toBe("offer");
    expect(bobOffer?.content.description?.type).toBe("offer");
    alice.hold = false;
    bob.hold = false;
    // Both offers cross.
    await outbound.handleEvent({
      type: bobOffer?.type ?? "",
      sender: bob.userId,
      content: bobOffer?.content ?? { call_id: "", version: "1" },
    });
    await inbound.handleEvent({
      type: aliceOffer?.type ?? "",
      sender: alice.userId,
      content: aliceOffer?.content ?? { call_id: "", version: "1" },
    });
    await flush();
    // The caller ignored bob's offer; bob rolled back and answered alice's.
    expect(bob.sentOf("m.call.negotiate")[1]?.content.description?.type).toBe("answer");
    expect(inbound.media.remoteFeed()?.stream.getVideoTracks()).toHaveLength(1);
    expect(alice.platform.peer.signalingState).toBe("stable");
    expect(bob.platform.peer.signalingState).toBe("stable");
  });

  it("holds and resumes: the held side sees localOnHold", async () => {
    const { outbound, inbound } = await connectedPair();
    outbound.media.setRemoteOnHold(true);
    await flush();
    expect(outbound.media.holdState.getSnapshot()).toEqual({ remoteOnHold: true, localOnHold: false });
    expect(inbound.media.holdState.getSnapshot()).toEqual({ remoteOnHold: false, localOnHold: true });
    outbound.media.setRemoteOnHold(false);
    await flush();
    expect(inbound.media.holdState.getSnapshot().localOnHold).toBe(false);
    expect(outbound.media.holdState.getSnapshot().remoteOnHold).toBe(false);
  });

  it("a track handed back after a hold (in a new stream object of the same id) returns to the feed's stream", async () => {
    const { inbound } = await connectedPair();
    const feed = inbound.media.remoteFeed();
    const audio = feed?.stream.getAudioTracks()[0];
    if (!feed || !audio) throw new Error("no remote audio");
    // The platform took the track out on hold, then fires it again in a fresh stream object.
    feed.stream.removeTrack(audio);
    inbound.media.onRemoteTrack(audio, [new FakeStream([audio], feed.stream.id)]);
    expect(inbound.media.remoteFeed()).toBe(feed);
    expect(feed.stream.getAudioTracks()).toEqual([audio]);
    expect(inbound.media.feeds.getSnapshot().filter((f) => !f.isLocal)).toHaveLength(1);
  });

  it("resuming restores each transceiver's direction (a removed screen share stays receive-only)", async () => {
    const { outbound } = await connectedPair();
    const transceivers = outbound.requirePeer().getTransceivers();
    const before = transceivers.map((t) => t.direction);
    const last = transceivers[transceivers.length - 1];
    if (last) last.direction = "recvonly";
    const expected = transceivers.map((t) => t.direction);
    outbound.media.setRemoteOnHold(true);
    expect(transceivers.every((t) => t.direction === "inactive")).toBe(true);
    outbound.media.setRemoteOnHold(false);
    expect(transceivers.map((t) => t.direction)).toEqual(expected);
    expect(before.length).toBeGreaterThan(0);
  });

  it("sends DTMF where supported, and says so where not", async () => {
    const { alice, outbound } = await connectedPair();
    expect(outbound.media.supportsDtmf()).toBe(true);
    outbound.media.sendDtmf("1#");
    const sender = alice.platform.peer
      .getTransceivers()
      .find((t) => t.sender.track?.kind === "audio")?.sender;
    expect((sender?.dtmf as { tones: string[] } | undefined)?.tones).toEqual(["1#"]);
    const env = await connectedPair({ alice: { dtmf: false } });
    expect(env.outbound.media.supportsDtmf()).toBe(false);
    expect(() => env.outbound.media.sendDtmf("1")).toThrow("DTMF is not supported");
    expect(env.alice.sentOf("m.call.invite")[0]?.content.capabilities?.["m.call.dtmf"]).toBe(false);
  });

  it("switches the microphone and camera mid-call by replaceTrack, without renegotiating", async () => {
    const { alice, outbound } = await connectedPair();
    await outbound.media.setVideoMuted(false);
    await outbound.media.setMicrophoneMuted(true);
    await flush();
    const negotiations = alice.sentOf("m.call.negotiate").length;
    const peer = alice.platform.peers[0];
    const stream = outbound.media.localFeed()?.stream;
    const [oldMic, oldCam] = [stream?.getAudioTracks()[0], stream?.getVideoTracks()[0]];

    await outbound.media.switchInputDevice("audio", "mic-2");
    await outbound.media.switchInputDevice("video", "cam-2");
    await flush();

    expect(alice.platform.mediaDevices.requests.slice(-2)).toEqual([
      { audio: { deviceId: "mic-2" }, video: false },
      { audio: false, video: { deviceId: "cam-2" } },
    ]);
    const [mic, cam] = [stream?.getAudioTracks()[0], stream?.getVideoTracks()[0]];
    expect(stream?.getTracks()).toHaveLength(2);
    expect([mic === oldMic, cam === oldCam]).toEqual([false, false]);
    // The same senders carry the new tracks; the old ones are stopped; the mute stays.
    const sent = peer?.getTransceivers().map((t) => t.sender.track);
    expect(sent).toContain(mic);
    expect(sent).toContain(cam);
    expect(alice.platform.mediaDevices.live()).not.toContain(oldMic);
    expect(alice.platform.mediaDevices.live()).not.toContain(oldCam);
    expect(mic?.enabled).toBe(false);
    expect(alice.sentOf("m.call.negotiate")).toHaveLength(negotiations);
    expect(outbound.state.getSnapshot()).toBe("connected");
  });

  it("a failed device switch reports the SPEC's capture message and keeps the old track", async () => {
    const { alice, outbound } = await connectedPair();
    const mic = outbound.media.localFeed()?.stream.getAudioTracks()[0];
    alice.platform.mediaDevices.failUserMedia = new Error("NotReadableError");
    await expect(outbound.media.switchInputDevice("audio", "gone")).rejects.toThrow(
      "Couldn't start capturing media! Is your microphone set up and does this app have permission?",
    );
    expect(outbound.media.localFeed()?.stream.getAudioTracks()[0]).toBe(mic);
    expect(alice.platform.mediaDevices.live()).toContain(mic);
  });

  it("summarises stats", async () => {
    const { outbound } = await connectedPair();
    expect(await outbound.getStats()).toEqual({
      bytesSent: 2000,
      bytesReceived: 1000,
      packetsReceived: 10,
      packetsLost: 1,
      roundTripTimeMs: 20,
      jitterMs: 1,
    });
  });
});

describe("call feed speaking detection", () => {
  it("samples an analyser of size 512 every 200 ms and speaks while one of the last 8 samples is above -60 dB", async () => {
    const scheduler = new FakeScheduler();
    const platform = new FakeNetwork().platform();
    const feed = new CallFeed({
      stream: new FakeStream([new FakeTrack("audio")]),
      userId: "@a:hs",
      purpose: "m.usermedia",
      isLocal: false,
      scheduler,
      platform,
    });
    feed.measureVolume(true);
    expect(platform.fftSizes).toEqual([512]);
    platform.level = -59;
    await scheduler.advance(199);
    expect(feed.speaking.getSnapshot()).toBe(false);
    await scheduler.advance(1);
    expect(feed.speaking.getSnapshot()).toBe(true);
    platform.level = -61;
    await scheduler.advance(200 * 7);
    expect(feed.speaking.getSnapshot()).toBe(true);
    await scheduler.advance(200);
    expect(feed.speaking.getSnapshot()).toBe(false);
    feed.dispose();
    expect(scheduler.pending()).toEqual([]);
    expect(platform.analysers[0]?.disposed).toBe(true);
  });
});
