/**
 * What arrives for a running call: answers (the caller keeps the first and
 * sends m.call.select_answer), select_answer (another device was chosen:
 * answered_elsewhere), candidates (kept per party until the opponent is
 * known and the remote description set), hangup, reject (honoured only in
 * invite_sent or ringing, or fledgling when inbound), negotiate,
 * sdp_stream_metadata_changed, replaces and asserted_identity. Events of
 * parties other than the chosen opponent are dropped.
 */
import { CallError } from "./types";
import { ObservableValue } from "../../util/observable";
import type { Call } from "./Call";
import { IncomingCandidates, NO_PARTY } from "./candidates";
import { CallEventType, isHangupReason } from "./types";
import type { CallContent, IncomingCallEvent } from "./types";

export class InboundSignalling {
  /** The identity the opponent asserted. */
  readonly identityValue = new ObservableValue<CallContent["asserted_identity"]>(undefined);
  private readonly incoming = new IncomingCandidates();

  constructor(private readonly call: Call) {}

  get identity(): ObservableValue<CallContent["asserted_identity"]> {
    return this.identityValue;
  }

  /** One m.call.* event, dropped unless it is for this call and from its opponent. */
  async handle(event: IncomingCallEvent): Promise<void> {
    const call = this.call;
    const c = event.content;
    if (c.call_id !== call.callId || call.ended) return;
    if (event.sender === call.userId && c.party_id === call.ourPartyId) return; // our own echo
    const party = c.party_id ?? NO_PARTY;
    const fromOpponent = call.opponentPartyId === undefined || party === call.opponentPartyId;
    switch (event.type) {
      case CallEventType.Answer:
        if (call.direction === "inbound") {
          if (event.sender === call.userId) call.terminate("remote", "answered_elsewhere");
          return;
        }
        await this.onAnswer(c);
        return;
      case CallEventType.SelectAnswer:
        if (call.direction === "inbound" && fromOpponent && c.selected_party_id !== call.ourPartyId)
          call.terminate("remote", "answered_elsewhere");
        return;
      case CallEventType.Candidates:
        this.incoming.add(party, c.candidates ?? []);
        if (fromOpponent && call.opponentPartyId !== undefined) await this.addBufferedCandidates();
        return;
      case CallEventType.Hangup:
        if (fromOpponent) call.terminate("remote", isHangupReason(c.reason) ? c.reason : "user_hangup");
        return;
      case CallEventType.Reject:
        this.onReject(c);
        return;
      case CallEventType.Negotiate:
        if (fromOpponent) await call.negotiator.onNegotiate(c);
        return;
      case CallEventType.SdpStreamMetadataChanged:
        if (fromOpponent) call.applyRemoteMetadata(c);
        return;
      case CallEventType.Replaces:
        if (fromOpponent) call.events.emit("transferRequested", c);
        return;
      case CallEventType.AssertedIdentity:
        if (fromOpponent) this.identityValue.set(c.asserted_identity);
        return;
    }
  }

  private async onAnswer(c: CallContent): Promise<void> {
    const call = this.call;
    const state = call.state.getSnapshot();
    // create_offer: the invite reached the callee before our send resolved.
    if (call.opponentPartyId !== undefined || (state !== "invite_sent" && state !== "create_offer")) return;
    call.opponentPartyId = c.party_id ?? NO_PARTY;
    call.opponentVersion = c.version;
    call.opponentCapabilities = c.capabilities ?? {};
    call.applyRemoteMetadata(c);
    call.connectivity.enterConnecting();
    if (call.canRenegotiate)
      void call
        .sendEvent(CallEventType.SelectAnswer, { selected_party_id: call.opponentPartyId })
        .catch(() => undefined);
    try {
      if (!c.answer) throw new CallError("set_remote_description", "The answer has no description");
      await call.requirePeer().setRemoteDescription(c.answer);
    } catch (cause) {
      call.fail("set_remote_description", "Failed to set the remote answer", cause, true);
      return;
    }
    await this.addBufferedCandidates();
  }

  /** Honoured only in invite_sent or ringing, or in fledgling for an inbound call (SPEC §4). */
  private onReject(c: CallContent): void {
    const call = this.call;
    const state = call.state.getSnapshot();
    const honoured =
      state === "invite_sent" ||
      state === "ringing" ||
      (state === "fledgling" && call.direction === "inbound");
    if (honoured) call.terminate("remote", isHangupReason(c.reason) ? c.reason : "user_hangup");
  }

  /** Adds the opponent's buffered candidates once the remote description is set. */
  async addBufferedCandidates(): Promise<void> {
    const peer = this.call.peer;
    const party = this.call.opponentPartyId;
    if (!peer?.remoteDescription || party === undefined) return;
    for (const candidate of this.incoming.take(party)) {
      if (!candidate.candidate) continue;
      await peer.addIceCandidate(candidate).catch(() => undefined);
    }
  }
}
