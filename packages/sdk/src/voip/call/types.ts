/**
 * The 1:1 call's vocabulary (SPEC §3 call event content, §4 1:1 call, §8
 * call messages, §9 calls): states, hangup reasons, event types, the wire
 * content of the m.call.* events, the error class and the timings.
 */

/** The 1:1 call states of SPEC §4. */
export type CallState =
  | "fledgling"
  | "invite_sent"
  | "wait_local_media"
  | "create_offer"
  | "create_answer"
  | "connecting"
  | "connected"
  | "ringing"
  | "ended";

export type CallDirection = "inbound" | "outbound";

/** Every hangup reason of SPEC §4. */
export const HANGUP_REASONS = [
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
] as const;
export type HangupReason = (typeof HANGUP_REASONS)[number];

export function isHangupReason(value: unknown): value is HangupReason {
  return typeof value === "string" && (HANGUP_REASONS as readonly string[]).includes(value);
}

/** The call messages of SPEC §8. */
export const LOCAL_OFFER_FAILED_MESSAGE = "Failed to get local offer!";
export const NO_USER_MEDIA_MESSAGE =
  "Couldn't start capturing media! Is your microphone set up and does this app have permission?";
export const INVALID_ICE_CONFIG_MESSAGE = "Couldn't start call! Invalid ICE server configuration.";
/** Our words for two rules SPEC §5 states without a message. */
export const NO_MEDIA_ANSWER_MESSAGE = "A call cannot be answered with neither audio nor video";
export const NO_DEVICE_ID_MESSAGE = "A call needs a device id";

export type CallErrorCode =
  HangupReason | "create_peer_connection" | "no_media" | "no_device_id" | "invalid_state" | "not_supported";

/** A call failure, with one of SPEC's messages where it has one. */
export class CallError extends Error {
  constructor(
    readonly code: CallErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "CallError";
  }
}

export const CallEventType = {
  Invite: "m.call.invite",
  Candidates: "m.call.candidates",
  Answer: "m.call.answer",
  SelectAnswer: "m.call.select_answer",
  Reject: "m.call.reject",
  Hangup: "m.call.hangup",
  Negotiate: "m.call.negotiate",
  SdpStreamMetadataChanged: "m.call.sdp_stream_metadata_changed",
  Replaces: "m.call.replaces",
  AssertedIdentity: "m.call.asserted_identity",
} as const;
export type CallEventTypeName = (typeof CallEventType)[keyof typeof CallEventType];

export function isCallEventType(type: string): type is CallEventTypeName {
  return (Object.values(CallEventType) as string[]).includes(type);
}

export type FeedPurpose = "m.usermedia" | "m.screenshare";

/** Per-stream metadata, keyed by stream id. */
export interface StreamMetadata {
  purpose: FeedPurpose;
  audio_muted?: boolean;
  video_muted?: boolean;
}
export type SdpStreamMetadata = Record<string, StreamMetadata>;

/** Fields every m.call.* event carries (SPEC §3). */
export interface CallEventBase {
  call_id: string;
  party_id?: string;
  /** "1" today; 0 from older peers (no party_id, no reject, no negotiate). */
  version: string | number;
  seq?: number;
  /** Group calls (to-device) only. */
  conf_id?: string;
  device_id?: string;
  sender_session_id?: string;
  dest_session_id?: string;
}

export interface CallCapabilities {
  "m.call.transferee"?: boolean;
  "m.call.dtmf"?: boolean;
}

export interface CallContent extends CallEventBase {
  offer?: SessionDescriptionContent;
  answer?: SessionDescriptionContent;
  description?: SessionDescriptionContent;
  lifetime?: number;
  invitee?: string;
  candidates?: Array<{ candidate: string; sdpMid?: string | null; sdpMLineIndex?: number | null }>;
  selected_party_id?: string;
  reason?: string;
  capabilities?: CallCapabilities;
  sdp_stream_metadata?: SdpStreamMetadata;
  "org.matrix.msc3077.sdp_stream_metadata"?: SdpStreamMetadata;
  replacement_id?: string;
  target_user?: { id: string; display_name?: string; avatar_url?: string };
  create_call?: string;
  await_call?: string;
  target_room?: string;
  asserted_identity?: { id?: string; display_name?: string; avatar_url?: string };
  [key: string]: unknown;
}

export interface SessionDescriptionContent {
  type: "offer" | "answer";
  sdp: string;
}

/** A call event as it arrives: its type, sender, content and age. */
export interface IncomingCallEvent {
  type: string;
  sender: string;
  content: CallContent;
  /** Milliseconds since it was sent (unsigned.age, or now minus origin_server_ts). */
  ageMs?: number;
}

/** Timings of SPEC §9 and the wire. */
export const CALL_TIMINGS = {
  /** The invite's lifetime (the one matrix-js-sdk sends too). */
  inviteLifetimeMs: 60_000,
  /** An invite younger than lifetime minus this is still fresh. */
  inviteFreshnessMarginMs: 3_000,
  iceRestartDelayMs: 2_000,
  iceDisconnectHangupMs: 30_000,
  callLengthTickMs: 1_000,
  /** Candidates wait this long to be batched: inbound 500 ms, outbound 2000 ms. */
  candidateBatchInboundMs: 500,
  candidateBatchOutboundMs: 2_000,
  /**
   * The answer waits for the answerer's first candidates, so its SDP
   * carries them and the caller can check them at once: until gathering
   * completes, or this long after the first candidate, at most
   * initialGatheringMaxMs. The invite does not wait (ringing comes first;
   * the caller's candidates follow in its batch, and the callee learns the
   * caller's address from its checks meanwhile).
   */
  initialCandidatesSettleMs: 20,
  initialGatheringMaxMs: 200,
  /** Failed candidate sends are retried with 500·2ⁿ ms back-off, this many times. */
  candidateSendRetries: 5,
} as const;
