/**
 * The media of one call: its local and remote feeds and the controls over
 * them: microphone and camera mute (announced with
 * m.call.sdp_stream_metadata_changed), adding video to a voice call, screen
 * sharing (a second stream, purpose m.screenshare), hold and resume, and
 * DTMF where the platform has it. Track changes make the peer connection
 * ask for renegotiation, which the call's Negotiator handles.
 */
import { ObservableValue } from "../../util/observable";
import type { ReadonlyObservable } from "../../util/observable";
import { captureInputTrack, inputTrack } from "../devices";
import type { InputKind } from "../devices";
import { CallFeed } from "../feed";
import type { MediaStream, MediaTrack, RtpSender, Transceiver, TransceiverDirection } from "../platform";
import type { CallPeerHost } from "./negotiation";
import { CallError, CallEventType } from "./types";
import type { FeedPurpose, SdpStreamMetadata } from "./types";

export interface HoldState {
  /** We put the opponent on hold. */
  remoteOnHold: boolean;
  /** The opponent put us on hold: nothing of ours is being sent. */
  localOnHold: boolean;
}

export class CallMedia {
  private readonly feedList = new ObservableValue<readonly CallFeed[]>([]);
  private readonly hold = new ObservableValue<HoldState>({ remoteOnHold: false, localOnHold: false });
  private readonly senders = new Map<string, RtpSender>();
  private remoteMetadata: SdpStreamMetadata = {};
  /** Each transceiver's direction before a hold, restored on resume. */
  private readonly heldDirections = new Map<Transceiver, TransceiverDirection>();

  constructor(private readonly call: CallPeerHost) {}

  get feeds(): ReadonlyObservable<readonly CallFeed[]> {
    return this.feedList;
  }
  get holdState(): ReadonlyObservable<HoldState> {
    return this.hold;
  }
  localFeed(purpose: FeedPurpose = "m.usermedia"): CallFeed | undefined {
    return this.feedList.getSnapshot().find((f) => f.isLocal && f.purpose === purpose);
  }
  remoteFeed(purpose: FeedPurpose = "m.usermedia"): CallFeed | undefined {
    return this.feedList.getSnapshot().find((f) => !f.isLocal && f.purpose === purpose);
  }

  addLocalFeed(stream: MediaStream, purpose: FeedPurpose): CallFeed {
    const feed = new CallFeed({
      stream,
      userId: this.call.userId,
      purpose,
      isLocal: true,
      ownsTracks: this.call.ownsLocalMedia,
      audioMuted: false,
      videoMuted: stream.getVideoTracks().length === 0,
      scheduler: this.call.scheduler,
      platform: this.call.platform,
    });
    this.feedList.set([...this.feedList.getSnapshot(), feed]);
    return feed;
  }

  /** Adds every local track not yet sent to the peer connection. */
  attachLocalTracks(): void {
    const peer = this.call.peer;
    if (!peer) return;
    for (const feed of this.feedList.getSnapshot()) {
      if (!feed.isLocal) continue;
      for (const track of feed.stream.getTracks()) {
        if (!this.senders.has(track.id)) this.senders.set(track.id, peer.addTrack(track, feed.stream));
      }
    }
  }

  /** Hands the local user media stream over to another call (glare), without stopping it. */
  takeUserMediaStream(): MediaStream | undefined {
    const feed = this.localFeed();
    if (!feed) return undefined;
    this.feedList.set(this.feedList.getSnapshot().filter((f) => f !== feed));
    return feed.stream;
  }

  /** The per-stream metadata fields of invite, answer and negotiate (both spellings). */
  metadataFields(): Record<string, SdpStreamMetadata> {
    const metadata: SdpStreamMetadata = {};
    for (const feed of this.feedList.getSnapshot())
      if (feed.isLocal) metadata[feed.stream.id] = feed.metadata();
    return { sdp_stream_metadata: metadata, "org.matrix.msc3077.sdp_stream_metadata": metadata };
  }

  /** Whether the remote offer has video to answer with. */
  remoteOffersVideo(): boolean {
    return (this.call.peer?.getTransceivers() ?? []).some((t) => t.receiver.track.kind === "video");
  }

  onRemoteTrack(track: MediaTrack, streams: readonly MediaStream[]): void {
    const stream = streams[0];
    if (!stream || this.call.ended) return;
    const known = this.feedList.getSnapshot().find((f) => !f.isLocal && f.stream.id === stream.id);
    if (known) {
      // A track coming back (after a hold, the platform took it out of its stream, and may hand it
      // back in a new stream object of the same id): the feed's stream gets it again.
      if (!known.stream.getTracks().some((t) => t.id === track.id)) known.stream.addTrack(track);
      return;
    }
    const meta = this.remoteMetadata[stream.id];
    const feed = new CallFeed({
      stream,
      userId: this.call.opponentUserId,
      purpose: meta?.purpose ?? "m.usermedia",
      isLocal: false,
      audioMuted: meta?.audio_muted ?? false,
      videoMuted: meta?.video_muted ?? track.kind !== "video",
      scheduler: this.call.scheduler,
      platform: this.call.platform,
    });
    this.feedList.set([...this.feedList.getSnapshot(), feed]);
  }

  onRemoteMetadata(metadata: SdpStreamMetadata): void {
    this.remoteMetadata = metadata;
    const gone: CallFeed[] = [];
    for (const feed of this.feedList.getSnapshot()) {
      if (feed.isLocal) continue;
      const meta = metadata[feed.stream.id];
      if (meta) feed.setMuted({ audioMuted: !!meta.audio_muted, videoMuted: !!meta.video_muted });
      // The metadata lists every stream the opponent sends: one it no longer names has stopped (a screen share ended).
      else if (Object.keys(metadata).length > 0) gone.push(feed);
    }
    if (gone.length === 0) return;
    this.feedList.set(this.feedList.getSnapshot().filter((f) => !gone.includes(f)));
    for (const feed of gone) feed.dispose();
  }

  /** Mutes or unmutes the microphone and tells the opponent. */
  async setMicrophoneMuted(muted: boolean): Promise<void> {
    this.localFeed()?.setMuted({ audioMuted: muted });
    await this.announceMetadata();
  }

  /** Mutes or unmutes the camera; unmuting a voice call adds video (renegotiated). */
  async setVideoMuted(muted: boolean): Promise<void> {
    const feed = this.localFeed();
    if (!feed) return;
    if (!muted && feed.stream.getVideoTracks().length === 0) {
      if (!this.call.canRenegotiate) throw new CallError("not_supported", "The other party cannot add video");
      const video = await this.call.platform.mediaDevices.getUserMedia({ audio: false, video: true });
      for (const track of video.getVideoTracks()) feed.stream.addTrack(track);
      this.attachLocalTracks();
    }
    feed.setMuted({ videoMuted: muted });
    await this.announceMetadata();
  }

  /**
   * Moves the sender of `old` to `next` (RtpSender.replaceTrack): the same
   * transceiver carries the new device, so nothing is renegotiated.
   */
  async replaceSenderTrack(old: MediaTrack, next: MediaTrack): Promise<void> {
    const sender = this.senders.get(old.id);
    if (!sender) return;
    this.senders.delete(old.id);
    this.senders.set(next.id, sender);
    await sender.replaceTrack(next);
  }

  /**
   * Switches the microphone or camera of our camera stream to `deviceId`
   * (the default when undefined) mid-call, without renegotiation. A feed
   * without that kind of track (a voice call's camera) is left alone: the
   * next capture uses the choice.
   */
  async switchInputDevice(kind: InputKind, deviceId: string | undefined): Promise<void> {
    const feed = this.localFeed();
    const old = feed && inputTrack(feed.stream, kind);
    if (!feed || !old) return;
    const next = await captureInputTrack(this.call.platform, kind, deviceId);
    if (this.call.ended || !feed.stream.getTracks().includes(old)) {
      next.stop();
      return;
    }
    feed.replaceTrack(old, next);
    await this.replaceSenderTrack(old, next);
    if (this.call.ownsLocalMedia) old.stop();
  }

  /**
   * Starts or stops sharing the screen as a second stream (renegotiated).
   * A mesh group call passes the one screen stream it shares with every
   * peer (`shared`); otherwise the screen is captured here.
   */
  async setScreensharing(enabled: boolean, shared?: MediaStream): Promise<void> {
    const existing = this.localFeed("m.screenshare");
    if (enabled === !!existing) return;
    if (enabled) {
      if (!this.call.canRenegotiate)
        throw new CallError("not_supported", "The other party cannot receive a screen");
      const stream = shared ?? (await this.call.platform.mediaDevices.getDisplayMedia());
      if (this.call.ended) {
        if (!shared) for (const track of stream.getTracks()) track.stop();
        return;
      }
      this.addLocalFeed(stream, "m.screenshare");
      this.attachLocalTracks();
      return;
    }
    if (!existing) return;
    const peer = this.call.peer;
    for (const track of existing.stream.getTracks()) {
      const sender = this.senders.get(track.id);
      if (sender && peer) peer.removeTrack(sender);
      this.senders.delete(track.id);
    }
    this.feedList.set(this.feedList.getSnapshot().filter((f) => f !== existing));
    existing.dispose();
  }

  /** Puts the opponent on hold (every transceiver inactive) or resumes. */
  setRemoteOnHold(onHold: boolean): void {
    if (this.hold.getSnapshot().remoteOnHold === onHold) return;
    if (!this.call.canRenegotiate) throw new CallError("not_supported", "The other party cannot be held");
    // Resuming restores each direction: a transceiver whose track was removed (a stopped screen
    // share) stays receive-only rather than announcing an empty stream the other side would show.
    for (const t of this.call.peer?.getTransceivers() ?? []) {
      if (onHold) this.heldDirections.set(t, t.direction);
      t.direction = onHold ? "inactive" : (this.heldDirections.get(t) ?? "sendrecv");
    }
    if (!onHold) this.heldDirections.clear();
    this.hold.set({ ...this.hold.getSnapshot(), remoteOnHold: onHold });
  }

  /** Recomputes whether the opponent holds us, after each negotiation. */
  updateHoldState(): void {
    const transceivers = this.call.peer?.getTransceivers() ?? [];
    const sending = transceivers.some(
      (t) => t.currentDirection === "sendrecv" || t.currentDirection === "sendonly",
    );
    const state = this.hold.getSnapshot();
    const localOnHold = !state.remoteOnHold && transceivers.length > 0 && !sending;
    if (localOnHold !== state.localOnHold) this.hold.set({ ...state, localOnHold });
  }

  supportsDtmf(): boolean {
    return this.dtmfSender() !== undefined;
  }

  /** Sends DTMF tones on the audio sender, where the platform has it. */
  sendDtmf(tones: string): void {
    const dtmf = this.dtmfSender();
    if (!dtmf) throw new CallError("not_supported", "DTMF is not supported");
    dtmf.insertDTMF(tones);
  }

  private dtmfSender(): NonNullable<RtpSender["dtmf"]> | undefined {
    for (const sender of this.senders.values())
      if (sender.track?.kind === "audio" && sender.dtmf) return sender.dtmf;
    return undefined;
  }

  private async announceMetadata(): Promise<void> {
    const state = this.call.state.getSnapshot();
    if ((state !== "connecting" && state !== "connected") || !this.call.canRenegotiate) return;
    await this.call.sendEvent(CallEventType.SdpStreamMetadataChanged, this.metadataFields());
  }

  /** Stops every local track and releases the feeds. */
  dispose(): void {
    for (const feed of this.feedList.getSnapshot()) feed.dispose();
    this.feedList.set([]);
    this.senders.clear();
  }
}
