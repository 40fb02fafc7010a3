/**
 * Mesh group calls (MSC3401) vocabulary: the group call state event and the
 * member state (SPEC §3), their validation (SPEC §5), the group call states
 * (SPEC §4), the error codes and messages (SPEC §8) and the timings (SPEC §9).
 */

export const GROUP_CALL_EVENT = "org.matrix.msc3401.call";
export const GROUP_CALL_MEMBER_EVENT = "org.matrix.msc3401.call.member";

export type GroupCallState =
  | "local_call_feed_uninitialized"
  | "initializing_local_call_feed"
  | "local_call_feed_initialized"
  | "entered"
  | "ended";

export const GROUP_CALL_TYPES = ["m.video", "m.voice"] as const;
export type GroupCallType = (typeof GROUP_CALL_TYPES)[number];
export const GROUP_CALL_INTENTS = ["m.ring", "m.prompt", "m.room"] as const;
export type GroupCallIntent = (typeof GROUP_CALL_INTENTS)[number];

export interface DataChannelOptions {
  ordered?: boolean;
  maxPacketLifeTime?: number;
  maxRetransmits?: number;
  protocol?: string;
}

/** The content of the group call state event (state key: the group call id). */
export interface GroupCallContent {
  "m.type": GroupCallType;
  "m.intent": GroupCallIntent;
  "io.element.ptt"?: boolean;
  "m.terminated"?: "call_ended";
  dataChannelsEnabled?: boolean;
  dataChannelOptions?: DataChannelOptions;
  [key: string]: unknown;
}

export interface MemberDevice {
  device_id: string;
  session_id: string;
  expires_ts: number;
  feeds: Array<{ purpose: string }>;
}

/** The member state event's content (state key: the user id). */
export interface GroupCallMemberContent {
  "m.calls": Array<{ "m.call_id": string; "m.devices": MemberDevice[] }>;
}

export type GroupCallErrorCode =
  "no_user_media" | "unknown_device" | "place_call_failed" | "invalid_state" | "invalid_content";

/** SPEC §8 messages. */
export const unknownDeviceMessage = (userId: string): string => `No device found for ${userId}`;
export const placeCallFailedMessage = (userId: string): string => `Failed to place call to ${userId}`;
export const cannotEnterMessage = (state: GroupCallState): string =>
  `Cannot enter call in the ${state} state`;

export class GroupCallError extends Error {
  constructor(
    readonly code: GroupCallErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "GroupCallError";
  }
}

export const GROUP_CALL_TIMINGS = {
  /** A member device's expiry, re-sent at 3/4 of it. */
  deviceExpiryMs: 60 * 60 * 1000,
  activeSpeakerIntervalMs: 1_000,
  retryCallIntervalMs: 5_000,
  maxRetriesPerDevice: 3,
  participantTimeoutMs: 15_000,
  pttMaxTransmitMs: 20_000,
  statsIntervalMs: 10_000,
} as const;

/** Validates a group call state event's content: type and intent must be known (SPEC §5). */
export function parseGroupCallContent(content: Record<string, unknown>): GroupCallContent {
  const type = content["m.type"];
  const intent = content["m.intent"];
  if (!(GROUP_CALL_TYPES as readonly unknown[]).includes(type))
    throw new GroupCallError("invalid_content", `Invalid group call type: ${String(type)}`);
  if (!(GROUP_CALL_INTENTS as readonly unknown[]).includes(intent))
    throw new GroupCallError("invalid_content", `Invalid group call intent: ${String(intent)}`);
  return content as GroupCallContent;
}

/** A participant: one device of a joined user with a valid membership. */
export interface Participant {
  userId: string;
  deviceId: string;
  sessionId: string;
  screensharing: boolean;
  expiresTs: number;
}

/**
 * The devices of one member state event that count for `groupCallId`: a
 * string device_id and session_id, a numeric expires_ts in the future, a
 * feeds array, and a joined user (SPEC §5).
 */
export function validDevices(
  userId: string,
  content: unknown,
  groupCallId: string,
  now: number,
  joined: boolean,
): Participant[] {
  if (!joined || typeof content !== "object" || content === null) return [];
  const calls = (content as Record<string, unknown>)["m.calls"];
  if (!Array.isArray(calls)) return [];
  const call = (calls as Array<Record<string, unknown>>).find((c) => c["m.call_id"] === groupCallId);
  const devices = call?.["m.devices"];
  if (!Array.isArray(devices)) return [];
  const out: Participant[] = [];
  for (const d of devices as Array<Record<string, unknown>>) {
    const { device_id, session_id, expires_ts, feeds } = d;
    if (typeof device_id !== "string" || typeof session_id !== "string") continue;
    if (typeof expires_ts !== "number" || expires_ts <= now || !Array.isArray(feeds)) continue;
    out.push({
      userId,
      deviceId: device_id,
      sessionId: session_id,
      expiresTs: expires_ts,
      screensharing: (feeds as Array<{ purpose?: unknown }>).some((f) => f.purpose === "m.screenshare"),
    });
  }
  return out;
}

/**
 * Whether we place the call to `other` (SPEC §4): the lower user id, then the
 * lower device id, waits for the other to call.
 */
export function wantsOutgoingCall(
  me: { userId: string; deviceId: string },
  other: { userId: string; deviceId: string },
): boolean {
  if (me.userId !== other.userId) return me.userId > other.userId;
  return me.deviceId > other.deviceId;
}
