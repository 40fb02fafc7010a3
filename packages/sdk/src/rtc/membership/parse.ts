/**
 * Reading call memberships from untrusted events. Both forms are validated
 * field by field; anything malformed, in the legacy `memberships` array
 * form, a leave (empty content) or naming another user in its state key
 * gives null. Ids are data: "__proto__" is just a string here, never a key
 * of a plain object.
 */
import type { ClientEventWithoutRoomId } from "../../api/types/events";
import {
  CALL_APPLICATION,
  CALL_MEMBER_EVENT,
  ROOM_SCOPE,
  ROOM_SLOT,
  RTC_MEMBER_EVENT,
  STICKY_DURATION_MS,
} from "../constants";
import type { ActiveFocus, CallMembership, RtcTransport, SessionDescription } from "./types";

/** A membership without its own expiry lasts this long after created_ts. */
export const DEFAULT_MEMBERSHIP_EXPIRY_MS = 4 * 60 * 60 * 1000;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Own property only, so "__proto__", "constructor" and friends read as absent. */
function own(obj: Json, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined;
}

function str(obj: Json, key: string): string | undefined {
  const v = own(obj, key);
  return typeof v === "string" ? v : undefined;
}

function num(obj: Json, key: string): number | undefined {
  const v = own(obj, key);
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

/** Transports of an untrusted list: entries without a string type are skipped. */
export function parseTransports(value: unknown): RtcTransport[] {
  if (!Array.isArray(value)) return [];
  const out: RtcTransport[] = [];
  for (const entry of value as unknown[]) {
    if (!isObject(entry)) continue;
    const type = str(entry, "type");
    if (type === undefined) continue;
    const url = str(entry, "livekit_service_url");
    const alias = str(entry, "livekit_alias");
    out.push({
      type,
      ...(url !== undefined ? { livekitServiceUrl: url } : {}),
      ...(alias !== undefined ? { livekitAlias: alias } : {}),
    });
  }
  return out;
}

/** A leave: the content is empty (`{}`), which both forms write on leaving. */
export function isLeaveContent(content: unknown): boolean {
  return isObject(content) && Object.keys(content).length === 0;
}

/** Whether the state key may belong to `sender`: `_{user}_{device}_…` or, in owned-state rooms, `{user}_…`. */
function stateKeyOwnedBy(stateKey: string, sender: string, deviceId: string): boolean {
  return stateKey.startsWith(`_${sender}_${deviceId}_`) || stateKey.startsWith(`${sender}_${deviceId}_`);
}

/** The state form, or null when malformed, legacy, a leave, or not the sender's own key. */
export function parseStateMembership(event: ClientEventWithoutRoomId): CallMembership | null {
  if (event.type !== CALL_MEMBER_EVENT || typeof event.state_key !== "string") return null;
  const content: unknown = event.content;
  if (!isObject(content) || isLeaveContent(content)) return null;
  // The legacy form: one event per user with a `memberships` array.
  if (own(content, "memberships") !== undefined) return null;
  const sender = event.sender;
  const deviceId = str(content, "device_id");
  const application = str(content, "application");
  const callId = str(content, "call_id");
  if (
    typeof sender !== "string" ||
    deviceId === undefined ||
    application === undefined ||
    callId === undefined
  )
    return null;
  if (!stateKeyOwnedBy(event.state_key, sender, deviceId)) return null;
  const scope = own(content, "scope");
  if (scope !== undefined && scope !== ROOM_SCOPE) return null;
  const focusRaw = own(content, "focus_active");
  if (!isObject(focusRaw) || str(focusRaw, "type") === undefined) return null;
  const focusActive: ActiveFocus = {
    type: str(focusRaw, "type") as string,
    focusSelection: str(focusRaw, "focus_selection") ?? "oldest_membership",
  };
  const foci = own(content, "foci_preferred");
  if (foci !== undefined && !Array.isArray(foci)) return null;
  const ts = typeof event.origin_server_ts === "number" ? event.origin_server_ts : 0;
  const createdTs = num(content, "created_ts") ?? ts;
  const expiresTs = num(content, "expires_ts");
  const expires = num(content, "expires");
  const intent = own(content, "m.call.intent");
  if (intent !== undefined && typeof intent !== "string") return null;
  return {
    form: "state",
    eventId: typeof event.event_id === "string" ? event.event_id : undefined,
    sender,
    deviceId,
    createdTs,
    expiresAt: expiresTs ?? createdTs + (expires ?? DEFAULT_MEMBERSHIP_EXPIRY_MS),
    session: { application, id: callId, scope: ROOM_SCOPE },
    callIntent: intent,
    focusActive,
    fociPreferred: parseTransports(foci),
    memberId: str(content, "membershipID") ?? `${sender}:${deviceId}`,
  };
}

/** Parses a sticky slot id `application#id`; "m.call#ROOM" is the room's call (id ""). */
export function parseSlotId(slotId: string): SessionDescription | null {
  const hash = slotId.indexOf("#");
  if (hash <= 0) return null;
  const application = slotId.slice(0, hash);
  const id = slotId.slice(hash + 1);
  return {
    application,
    id: application === CALL_APPLICATION && id === ROOM_SLOT ? "" : id,
    scope: ROOM_SCOPE,
  };
}

/** The slot id of a session in the sticky form. */
export function slotIdOf(session: SessionDescription): string {
  const id = session.application === CALL_APPLICATION && session.id === "" ? ROOM_SLOT : session.id;
  return `${session.application}#${id}`;
}

/** How long the server keeps a sticky event sticky (capped at the hour MSC4354 allows). */
function stickyDurationOf(event: ClientEventWithoutRoomId): number {
  const raw = (event as unknown as Json)["msc4354_sticky"] ?? (event as unknown as Json)["sticky"];
  const ms = isObject(raw) ? num(raw, "duration_ms") : undefined;
  return ms !== undefined && ms >= 0 ? Math.min(ms, STICKY_DURATION_MS) : STICKY_DURATION_MS;
}

/** The sticky form, or null when malformed, a leave, or claiming another user. */
export function parseStickyMembership(event: ClientEventWithoutRoomId): CallMembership | null {
  if (event.type !== RTC_MEMBER_EVENT) return null;
  const content: unknown = event.content;
  if (!isObject(content) || isLeaveContent(content)) return null;
  const sender = event.sender;
  const slotId = str(content, "slot_id");
  const member = own(content, "member");
  const app = own(content, "application");
  if (typeof sender !== "string" || slotId === undefined || !isObject(member) || !isObject(app)) return null;
  const session = parseSlotId(slotId);
  const appType = str(app, "type");
  if (session === null || appType === undefined || appType !== session.application) return null;
  const userId = str(member, "user_id");
  const deviceId = str(member, "device_id");
  const memberId = str(member, "id");
  // Until MSC4143 says who may speak for whom, a member is only ever its sender.
  if (userId !== sender || deviceId === undefined || memberId === undefined) return null;
  const intent = own(app, "m.call.intent");
  if (intent !== undefined && typeof intent !== "string") return null;
  const transports = own(content, "transports");
  const published = isObject(transports) ? own(transports, "published") : own(content, "rtc_transports");
  const ts = typeof event.origin_server_ts === "number" ? event.origin_server_ts : 0;
  return {
    form: "sticky",
    eventId: typeof event.event_id === "string" ? event.event_id : undefined,
    sender,
    deviceId,
    createdTs: ts,
    expiresAt: ts + stickyDurationOf(event),
    session,
    callIntent: intent,
    focusActive: undefined,
    fociPreferred: parseTransports(published),
    memberId,
  };
}

/** Either form; null for anything else. */
export function parseMembership(event: ClientEventWithoutRoomId): CallMembership | null {
  if (event.type === CALL_MEMBER_EVENT) return parseStateMembership(event);
  if (event.type === RTC_MEMBER_EVENT) return parseStickyMembership(event);
  return null;
}
