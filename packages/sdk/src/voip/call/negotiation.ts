/**
 * Renegotiation of a running call by perfect negotiation: whoever needs a
 * change makes an offer (m.call.negotiate); when two offers cross, the
 * impolite side (outbound) ignores the remote one and the polite side
 * (inbound) rolls its own back and answers. Adding video, screen sharing,
 * hold and ICE restarts all go through here. Version 0 peers cannot
 * renegotiate.
 */
import type { ReadonlyObservable } from "../../util/observable";
import type { IceServer, MediaPlatform, PeerConnection } from "../platform";
import type { Scheduler } from "../../util/scheduler";
import type { OwnedTimers } from "../timers";
import type { CallMedia } from "./media";
import { CALL_TIMINGS, CallEventType } from "./types";
import type { CallContent, CallDirection, CallEventTypeName, CallState } from "./types";

/** What the negotiator and the media controls need of their call. */
export interface CallPeerHost {
  readonly peer: PeerConnection | undefined;
  readonly direction: CallDirection | undefined;
  readonly state: ReadonlyObservable<CallState>;
  readonly canRenegotiate: boolean;
  readonly ended: boolean;
  readonly media: CallMedia;
  readonly platform: MediaPlatform;
  readonly scheduler: Scheduler;
  readonly timers: OwnedTimers;
  readonly userId: string;
  readonly ownsLocalMedia: boolean;
  readonly opponentUserId: string;
  sendEvent(type: CallEventTypeName, content: Partial<CallContent>): Promise<void>;
  localDescriptionContent(): { type: "offer" | "answer"; sdp: string };
  applyRemoteMetadata(content: CallContent): void;
}

export type { IceServer };

/** States in which a change is renegotiated; before them the first offer and answer carry it. */
const RENEGOTIABLE: readonly CallState[] = ["connecting", "connected"];

export class Negotiator {
  private makingOffer = false;

  constructor(private readonly call: CallPeerHost) {}

  /** The peer connection wants a new offer. */
  async onNegotiationNeeded(): Promise<void> {
    const call = this.call;
    const peer = call.peer;
    if (!peer || call.ended || !RENEGOTIABLE.includes(call.state.getSnapshot()) || !call.canRenegotiate)
      return;
    try {
      this.makingOffer = true;
      await peer.setLocalDescription();
      if (call.ended) return;
      await this.sendNegotiate();
    } catch {
      // A failed renegotiation leaves the call as it was; the next change tries again.
    } finally {
      this.makingOffer = false;
    }
  }

  /** Sends our local description; the spec requires lifetime on every m.call.negotiate, the answer included. */
  private async sendNegotiate(): Promise<void> {
    const call = this.call;
    await call.sendEvent(CallEventType.Negotiate, {
      description: call.localDescriptionContent(),
      lifetime: CALL_TIMINGS.inviteLifetimeMs,
      ...call.media.metadataFields(),
    });
  }

  /** An m.call.negotiate from the opponent. */
  async onNegotiate(content: CallContent): Promise<void> {
    const call = this.call;
    const peer = call.peer;
    const description = content.description;
    if (!peer || !description || call.ended) return;
    const polite = call.direction === "inbound";
    const collision = description.type === "offer" && (this.makingOffer || peer.signalingState !== "stable");
    if (collision && !polite) return; // the impolite side keeps its own offer
    call.applyRemoteMetadata(content);
    try {
      if (collision) await peer.setLocalDescription({ type: "rollback" });
      await peer.setRemoteDescription(description);
      if (description.type === "offer") {
        await peer.setLocalDescription();
        if (call.ended) return;
        await this.sendNegotiate();
      }
    } catch {
      return;
    }
    call.media.updateHoldState();
  }
}
