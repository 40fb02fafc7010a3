/**
 * The 1:1 call state machine (SPEC §4): fledgling, wait_local_media,
 * create_offer, invite_sent, ringing, create_answer, connecting, connected,
 * ended. Sans-I/O: signalling comes in through `handleEvent` and goes out
 * through the injected `signaller`; time, randomness and media come from the
 * injected scheduler and platform. One call owns its timers, its peer
 * connection and its feeds, and ending it releases all of them.
 *
 * The media controls (mute, video, screen share, hold, DTMF) live in
 * CallMedia; renegotiation is perfect negotiation with the inbound side
 * polite (negotiation.ts).
 */
import type { Scheduler } from "../../util/scheduler";
import { ObservableValue } from "../../util/observable";
import type { ReadonlyObservable } from "../../util/observable";
import type { CallFeed } from "../feed";
import type { MediaPlatform, MediaStream, PeerConnection } from "../platform";
import { summariseStats } from "../stats";
import type { CallStatsSummary } from "../stats";
import { Emitter, newCallId, OwnedTimers } from "../timers";
import { Connectivity } from "./ice";
import type { CallEvents, CallOptions, CallParty } from "./options";
import { InitialGathering, NO_PARTY, OutgoingCandidates } from "./candidates";
import { InboundSignalling } from "./signalling";
import { CallMedia } from "./media";
import { Negotiator } from "./negotiation";
import type { CallPeerHost } from "./negotiation";
import {
  CALL_TIMINGS,
  CallError,
  CallEventType,
  INVALID_ICE_CONFIG_MESSAGE,
  isHangupReason,
  LOCAL_OFFER_FAILED_MESSAGE,
  NO_DEVICE_ID_MESSAGE,
  NO_MEDIA_ANSWER_MESSAGE,
  NO_USER_MEDIA_MESSAGE,
} from "./types";
import type {
  CallCapabilities,
  CallContent,
  CallDirection,
  CallEventTypeName,
  CallState,
  HangupReason,
  IncomingCallEvent,
  SdpStreamMetadata,
} from "./types";

export class Call implements CallPeerHost {
  readonly callId: string;
  readonly roomId: string;
  readonly ourPartyId: string;
  readonly opponentUserId: string;
  direction: CallDirection | undefined;
  opponentPartyId: string | undefined;
  opponentVersion: string | number = "1";
  opponentCapabilities: CallCapabilities = {};
  hangupParty: CallParty | undefined;
  hangupReason: HangupReason | undefined;
  readonly events = new Emitter<CallEvents>();
  readonly timers: OwnedTimers;
  readonly media: CallMedia;
  peer: PeerConnection | undefined;
  remoteMetadata: SdpStreamMetadata = {};
  private readonly stateValue = new ObservableValue<CallState>("fledgling");
  /** @internal */
  readonly negotiator: Negotiator;
  /** @internal */
  readonly connectivity: Connectivity;
  private readonly signalling: InboundSignalling;
  private readonly outgoing: OutgoingCandidates;
  private readonly gathering: InitialGathering;
  private seq = 0;
  private inviteSent = false;

  constructor(private readonly options: CallOptions) {
    if (!options.deviceId) throw new CallError("no_device_id", NO_DEVICE_ID_MESSAGE);
    this.ourPartyId = options.deviceId;
    this.callId = options.callId ?? newCallId(options.scheduler);
    this.roomId = options.roomId;
    this.opponentUserId = options.opponentUserId;
    this.timers = new OwnedTimers(options.scheduler);
    this.media = new CallMedia(this);
    this.negotiator = new Negotiator(this);
    this.connectivity = new Connectivity(this, this.stateValue);
    this.signalling = new InboundSignalling(this);
    this.gathering = new InitialGathering(this.timers);
    this.outgoing = new OutgoingCandidates({
      timers: this.timers,
      delayMs: () =>
        this.direction === "inbound"
          ? CALL_TIMINGS.candidateBatchInboundMs
          : CALL_TIMINGS.candidateBatchOutboundMs,
      send: (candidates) => this.sendEvent(CallEventType.Candidates, { candidates }),
      onGiveUp: () => void this.hangup("signalling_timeout"),
    });
  }

  get state(): ReadonlyObservable<CallState> {
    return this.stateValue;
  }
  /** Milliseconds since connected, ticking every second. */
  get length(): ReadonlyObservable<number> {
    return this.connectivity.length;
  }
  /** The identity the opponent asserted (m.call.asserted_identity). */
  get assertedIdentity(): ReadonlyObservable<CallContent["asserted_identity"]> {
    return this.signalling.identity;
  }
  get feeds(): ReadonlyObservable<readonly CallFeed[]> {
    return this.media.feeds;
  }
  get platform(): MediaPlatform {
    return this.options.platform;
  }
  get scheduler(): Scheduler {
    return this.options.scheduler;
  }
  get ownsLocalMedia(): boolean {
    return this.options.ownsLocalMedia !== false;
  }
  get userId(): string {
    return this.options.userId;
  }
  get ended(): boolean {
    return this.stateValue.getSnapshot() === "ended";
  }
  /** Renegotiation needs a version 1 peer. */
  get canRenegotiate(): boolean {
    return String(this.opponentVersion) === "1";
  }

  /** Places an outbound call: local media, the offer, the invite. */
  async placeCall(media: { audio?: boolean; video?: boolean } = {}): Promise<void> {
    this.expectState("fledgling");
    this.direction = "outbound";
    this.stateValue.set("wait_local_media");
    const stream = await this.userMedia(media.audio ?? true, media.video ?? false);
    if (!stream) return;
    this.events.emit("setup", "media_ready");
    await this.placeWithStream(stream);
  }

  /** Places the call with media already captured (glare hands its stream on). */
  async placeWithStream(stream: MediaStream): Promise<void> {
    if (this.ended) return;
    this.direction = "outbound";
    this.media.addLocalFeed(stream, "m.usermedia");
    this.stateValue.set("create_offer");
    if (!this.createPeer()) return;
    this.media.attachLocalTracks();
    try {
      const offer = await this.requirePeer().createOffer();
      await this.requirePeer().setLocalDescription(offer);
    } catch (cause) {
      this.fail("local_offer_failed", LOCAL_OFFER_FAILED_MESSAGE, cause, false);
      return;
    }
    if (this.ended) return;
    this.events.emit("setup", "offer_created");
    try {
      // Sent at once: candidates trickle after it (no wait for ICE gathering).
      const sending = this.sendEvent(CallEventType.Invite, {
        offer: this.initialDescription(),
        lifetime: CALL_TIMINGS.inviteLifetimeMs,
        ...(this.options.sendInvitee !== false ? { invitee: this.opponentUserId } : {}),
        capabilities: this.capabilities(),
        ...this.media.metadataFields(),
      });
      this.events.emit("setup", "invite_sending");
      await sending;
    } catch (cause) {
      this.fail("send_invite", "Failed to send the invite", cause, false);
      return;
    }
    this.inviteSent = true;
    this.events.emit("setup", "invite_sent");
    if (this.ended) return;
    // The answer may have come back through sync before the send resolved.
    if (this.stateValue.getSnapshot() === "create_offer") this.stateValue.set("invite_sent");
    this.outgoing.release();
    this.timers.after(CALL_TIMINGS.inviteLifetimeMs, () => {
      if (this.stateValue.getSnapshot() === "invite_sent") void this.hangup("invite_timeout");
    });
  }

  /** Takes an incoming invite in: the remote offer is set and the call rings until its lifetime ends. */
  async initWithInvite(event: IncomingCallEvent): Promise<void> {
    const content = event.content;
    this.direction = "inbound";
    this.opponentPartyId = content.party_id ?? NO_PARTY;
    this.opponentVersion = content.version;
    this.opponentCapabilities = content.capabilities ?? {};
    this.applyRemoteMetadata(content);
    if (!this.createPeer()) return;
    try {
      if (!content.offer) throw new CallError("set_remote_description", "The invite has no offer");
      await this.requirePeer().setRemoteDescription(content.offer);
    } catch (cause) {
      this.fail("set_remote_description", "Failed to set the remote offer", cause, true);
      return;
    }
    if (this.ended) return;
    await this.signalling.addBufferedCandidates();
    this.stateValue.set("ringing");
    const lifetime = content.lifetime ?? CALL_TIMINGS.inviteLifetimeMs;
    this.timers.after(Math.max(0, lifetime - (event.ageMs ?? 0)), () => {
      if (this.stateValue.getSnapshot() === "ringing") this.terminate("remote", "invite_timeout");
    });
  }

  /** Answers a ringing call; at least one of audio and video is needed. */
  async answer(media: { audio?: boolean; video?: boolean } = {}): Promise<void> {
    const audio = media.audio ?? true;
    const video = media.video ?? true;
    if (!audio && !video) throw new CallError("no_media", NO_MEDIA_ANSWER_MESSAGE);
    this.expectState("ringing");
    this.stateValue.set("wait_local_media");
    const stream = await this.userMedia(audio, video && this.media.remoteOffersVideo());
    if (stream) await this.answerWithStream(stream);
  }

  /** Answers with media already captured (the winner of glare reuses its stream). */
  async answerWithStream(stream: MediaStream): Promise<void> {
    if (this.ended) return;
    this.media.addLocalFeed(stream, "m.usermedia");
    this.stateValue.set("create_answer");
    this.media.attachLocalTracks();
    try {
      const answer = await this.requirePeer().createAnswer();
      await this.requirePeer().setLocalDescription(answer);
    } catch (cause) {
      this.fail("create_answer", "Failed to create the answer", cause, true);
      return;
    }
    await this.gathering.wait(this.requirePeer().iceGatheringState);
    if (this.ended) return;
    try {
      await this.sendEvent(CallEventType.Answer, {
        answer: this.initialDescription(),
        capabilities: this.capabilities(),
        ...this.media.metadataFields(),
      });
    } catch (cause) {
      this.fail("send_answer", "Failed to send the answer", cause, false);
      return;
    }
    if (this.ended) return;
    this.connectivity.enterConnecting();
    this.outgoing.release();
  }

  /** Declines a ringing call (m.call.reject; a hangup for version 0 peers). */
  async reject(): Promise<void> {
    const state = this.stateValue.getSnapshot();
    if (state !== "ringing")
      throw new CallError("invalid_state", `Cannot reject a call in the ${state} state`);
    if (!this.canRenegotiate) {
      await this.hangup("user_hangup");
      return;
    }
    this.terminate("local", "user_hangup");
    await this.sendEvent(CallEventType.Reject, {}).catch(() => undefined);
  }

  /** Hangs up; the hangup is sent unless an outbound call never sent its invite. */
  async hangup(reason: HangupReason = "user_hangup"): Promise<void> {
    if (this.ended) return;
    const send = this.direction === "inbound" || this.inviteSent;
    this.terminate("local", reason);
    if (send) await this.sendEvent(CallEventType.Hangup, { reason }).catch(() => undefined);
  }

  /** This outgoing call lost glare to `successor`: we hang up and our media answers it; false when there was none yet. */
  async replacedBy(successor: Call): Promise<boolean> {
    const stream = this.media.takeUserMediaStream();
    this.events.emit("replaced", successor);
    await this.hangup("replaced");
    if (!stream || successor.direction !== "inbound") return false;
    await successor.answerWithStream(stream);
    return true;
  }

  /** Transfers the opponent to `targetUserId` (m.call.replaces), then hangs up as transferred. */
  async transfer(targetUserId: string): Promise<void> {
    const replacement = newCallId(this.scheduler);
    await this.sendEvent(CallEventType.Replaces, {
      replacement_id: replacement,
      target_user: { id: targetUserId },
      create_call: replacement,
    });
    await this.hangup("transferred");
  }

  /** The connection statistics, summarised; undefined before there is a peer connection. */
  async getStats(): Promise<CallStatsSummary | undefined> {
    if (!this.peer || this.ended) return undefined;
    return summariseStats(await this.peer.getStats());
  }

  /** Announces who we are to the opponent (m.call.asserted_identity). */
  sendAssertedIdentity(identity: { id?: string; display_name?: string }): Promise<void> {
    return this.sendEvent(CallEventType.AssertedIdentity, { asserted_identity: identity });
  }

  /** One m.call.* event for this call, already checked to be addressed to it. */
  handleEvent(event: IncomingCallEvent): Promise<void> {
    return this.signalling.handle(event);
  }

  // --- the peer connection -------------------------------------------------

  private createPeer(): boolean {
    try {
      this.peer = this.platform.createPeerConnection(
        {
          iceServers: this.options.iceServers(),
          ...(this.options.forceTurn ? { iceTransportPolicy: "relay" as const } : {}),
        },
        {
          onIceCandidate: (candidate) => {
            if (candidate && candidate.candidate !== "") {
              this.outgoing.push(candidate);
              this.gathering.onCandidate();
            } else this.gathering.onState("complete");
          },
          onIceGatheringStateChange: (state) => this.gathering.onState(state),
          onIceConnectionStateChange: (state) => this.connectivity.onIceState(state),
          onNegotiationNeeded: () => void this.negotiator.onNegotiationNeeded(),
          onTrack: (track, streams) => this.media.onRemoteTrack(track, streams),
        },
      );
      return true;
    } catch (cause) {
      this.fail("create_peer_connection", INVALID_ICE_CONFIG_MESSAGE, cause, false);
      return false;
    }
  }

  requirePeer(): PeerConnection {
    if (!this.peer) throw new CallError("invalid_state", "The call has no peer connection");
    return this.peer;
  }

  // --- helpers shared with media and negotiation ----------------------------

  /** Sends one event of this call with the common fields (SPEC §3). */
  sendEvent(type: CallEventTypeName, content: Partial<CallContent>): Promise<void> {
    return this.options.signaller.send(type, {
      ...content,
      call_id: this.callId,
      party_id: this.ourPartyId,
      version: "1",
      seq: this.seq++,
    });
  }

  localDescriptionContent(): { type: "offer" | "answer"; sdp: string } {
    const d = this.requirePeer().localDescription;
    if (!d || (d.type !== "offer" && d.type !== "answer"))
      throw new CallError("set_local_description", "No local description");
    return { type: d.type, sdp: d.sdp ?? "" };
  }

  /** The invite's or answer's description; the candidates it carries leave the batch. */
  private initialDescription(): { type: "offer" | "answer"; sdp: string } {
    const d = this.localDescriptionContent();
    this.outgoing.dropIncludedIn(d.sdp);
    return d;
  }

  applyRemoteMetadata(c: CallContent): void {
    const metadata = c.sdp_stream_metadata ?? c["org.matrix.msc3077.sdp_stream_metadata"];
    if (!metadata) return;
    this.remoteMetadata = { ...metadata };
    this.media.onRemoteMetadata(this.remoteMetadata);
  }

  capabilities(): CallCapabilities {
    return { "m.call.transferee": false, "m.call.dtmf": this.media.supportsDtmf() };
  }

  private async userMedia(audio: boolean, video: boolean): Promise<MediaStream | undefined> {
    try {
      const stream = await this.platform.mediaDevices.getUserMedia({ audio, video });
      if (!this.ended) return stream;
      for (const track of stream.getTracks()) track.stop();
    } catch (cause) {
      this.fail("no_user_media", NO_USER_MEDIA_MESSAGE, cause, this.direction === "inbound");
    }
    return undefined;
  }

  private expectState(expected: CallState): void {
    const state = this.stateValue.getSnapshot();
    if (state !== expected) throw new CallError("invalid_state", `The call is ${state}, not ${expected}`);
  }

  /** Reports `error` and ends the call; `sendHangup` tells the opponent. */
  fail(code: CallError["code"], message: string, cause: unknown, sendHangup: boolean): void {
    if (this.ended) return;
    this.events.emit("error", new CallError(code, message, { cause }));
    const reason: HangupReason = isHangupReason(code) ? code : "user_hangup";
    if (sendHangup) void this.hangup(reason);
    else this.terminate("local", reason);
  }

  /** Ends the call: timers, peer connection and feeds are released. */
  terminate(party: CallParty, reason: HangupReason): void {
    if (this.ended) return;
    this.hangupParty = party;
    this.hangupReason = reason;
    this.timers.clear();
    this.peer?.close();
    this.media.dispose();
    this.stateValue.set("ended");
  }
}

export type { CallFeed };
export type { CallEvents, CallOptions, CallParty, CallSetupStep, CallSignaller } from "./options";
