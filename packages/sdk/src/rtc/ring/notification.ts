/**
 * Ringing: the RTC notification (`org.matrix.msc4075.rtc.notification`),
 * the deprecated `org.matrix.msc4075.call.notify` older peers still use,
 * and the decline (`org.matrix.msc4310.rtc.decline`), built and read from
 * untrusted events.
 */
import type { ClientEventWithoutRoomId } from "../../api/types/events";
import {
  CALL_APPLICATION,
  CALL_NOTIFICATION_LIFETIME_MS,
  CALL_NOTIFY_EVENT,
  RTC_DECLINE_EVENT,
  RTC_NOTIFICATION_EVENT,
} from "../constants";

/** Peers cap a ring's lifetime; a longer one is cut to this. */
export const MAX_RING_LIFETIME_MS = 90_000;

export type NotificationType = "ring" | "notification";

export interface RingRequest {
  readonly userIds: readonly string[];
  /** Mention the whole room (@room). */
  readonly room?: boolean;
  readonly type: NotificationType;
  /** The event id of our membership the ring refers to. */
  readonly membershipEventId: string;
  readonly callIntent?: string;
  readonly lifetimeMs?: number;
}

/** A ring or notification someone sent. */
export interface Ring {
  readonly eventId: string;
  readonly sender: string;
  readonly type: NotificationType;
  readonly userIds: readonly string[];
  readonly room: boolean;
  readonly membershipEventId: string | undefined;
  readonly callIntent: string | undefined;
  readonly senderTs: number;
  readonly expiresAt: number;
  /** Sent as the deprecated call.notify. */
  readonly deprecated: boolean;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const own = (o: Json, k: string): unknown => (Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined);

function mentionsJson(request: RingRequest): Json {
  return { user_ids: [...request.userIds], ...(request.room === true ? { room: true } : {}) };
}

export function rtcNotificationContent(request: RingRequest, senderTs: number): Json {
  return {
    "m.mentions": mentionsJson(request),
    notification_type: request.type,
    "m.relates_to": { rel_type: "m.reference", event_id: request.membershipEventId },
    sender_ts: senderTs,
    lifetime: request.lifetimeMs ?? CALL_NOTIFICATION_LIFETIME_MS,
    ...(request.callIntent !== undefined ? { "m.call.intent": request.callIntent } : {}),
  };
}

/** The deprecated form: notify_type "ring" or "notify". */
export function callNotifyContent(request: RingRequest): Json {
  return {
    application: CALL_APPLICATION,
    "m.mentions": mentionsJson(request),
    notify_type: request.type === "ring" ? "ring" : "notify",
    call_id: "",
  };
}

export function declineContent(notificationEventId: string): Json {
  return { "m.relates_to": { rel_type: "m.reference", event_id: notificationEventId } };
}

function readMentions(content: Json): { userIds: string[]; room: boolean } {
  const mentions = own(content, "m.mentions");
  if (!isObject(mentions)) return { userIds: [], room: false };
  const ids = own(mentions, "user_ids");
  return {
    userIds: Array.isArray(ids) ? (ids as unknown[]).filter((u): u is string => typeof u === "string") : [],
    room: own(mentions, "room") === true,
  };
}

/** Reads either ring form; null for anything malformed. */
export function parseRing(event: ClientEventWithoutRoomId): Ring | null {
  const content: unknown = event.content;
  if (!isObject(content) || typeof event.sender !== "string" || typeof event.event_id !== "string")
    return null;
  const ts = typeof event.origin_server_ts === "number" ? event.origin_server_ts : 0;
  const { userIds, room } = readMentions(content);
  if (event.type === RTC_NOTIFICATION_EVENT) {
    const type = own(content, "notification_type");
    if (type !== "ring" && type !== "notification") return null;
    const rel = own(content, "m.relates_to");
    const relId = isObject(rel) && own(rel, "rel_type") === "m.reference" ? own(rel, "event_id") : undefined;
    const senderTs =
      typeof own(content, "sender_ts") === "number" ? (own(content, "sender_ts") as number) : ts;
    const rawLifetime = own(content, "lifetime");
    const lifetime =
      typeof rawLifetime === "number" && rawLifetime >= 0
        ? Math.min(rawLifetime, MAX_RING_LIFETIME_MS)
        : CALL_NOTIFICATION_LIFETIME_MS;
    const intent = own(content, "m.call.intent");
    return {
      eventId: event.event_id,
      sender: event.sender,
      type,
      userIds,
      room,
      membershipEventId: typeof relId === "string" ? relId : undefined,
      callIntent: typeof intent === "string" ? intent : undefined,
      senderTs,
      // A sender clock far ahead must not make a ring last: never past origin + lifetime.
      expiresAt: Math.min(senderTs, ts) + lifetime,
      deprecated: false,
    };
  }
  if (event.type === CALL_NOTIFY_EVENT) {
    const type = own(content, "notify_type");
    if (type !== "ring" && type !== "notify") return null;
    if (own(content, "application") !== CALL_APPLICATION) return null;
    return {
      eventId: event.event_id,
      sender: event.sender,
      type: type === "ring" ? "ring" : "notification",
      userIds,
      room,
      membershipEventId: undefined,
      callIntent: undefined,
      senderTs: ts,
      expiresAt: ts + CALL_NOTIFICATION_LIFETIME_MS,
      deprecated: true,
    };
  }
  return null;
}

/** The notification a decline refers to, or null. */
export function parseDecline(event: ClientEventWithoutRoomId): string | null {
  if (event.type !== RTC_DECLINE_EVENT || !isObject(event.content)) return null;
  const rel = own(event.content, "m.relates_to");
  if (!isObject(rel) || own(rel, "rel_type") !== "m.reference") return null;
  const id = own(rel, "event_id");
  return typeof id === "string" ? id : null;
}
