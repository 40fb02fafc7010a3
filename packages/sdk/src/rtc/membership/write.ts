/**
 * Writing our own membership in both forms. The state key is
 * `_{userId}_{deviceId}_m.call`; rooms whose version implements owned state
 * (MSC3757 / MSC3779, named `org.matrix.msc3757…` or `org.matrix.msc3779…`)
 * take it without the leading underscore, as the server then checks that a
 * key starting with a user id is written by that user.
 */
import { CALL_MEMBER_EVENT, ROOM_SCOPE, RTC_MEMBER_EVENT } from "../constants";
import { slotIdOf } from "./parse";
import type { FocusSelection, RtcTransport, SessionDescription } from "./types";

/** Room versions whose state keys are owned by the user id they start with. */
export function hasOwnedStateKeys(roomVersion: string): boolean {
  return /^org\.matrix\.msc(3757|3779)\b/.test(roomVersion);
}

/** The state key of our membership in `session` of a room of `roomVersion`. */
export function membershipStateKey(
  userId: string,
  deviceId: string,
  roomVersion: string,
  session: SessionDescription,
): string {
  const key = `${userId}_${deviceId}_${session.application}${session.id}`;
  return hasOwnedStateKeys(roomVersion) ? key : `_${key}`;
}

/** What we say about ourselves when joining. */
export interface OwnMembership {
  readonly userId: string;
  readonly deviceId: string;
  readonly session: SessionDescription;
  readonly callIntent?: string;
  readonly focusSelection?: FocusSelection;
  readonly fociPreferred: readonly RtcTransport[];
  /** The sticky form's member id (hashed identity mode); defaults to `userId:deviceId`. */
  readonly memberId?: string;
}

function transportJson(t: RtcTransport): Record<string, unknown> {
  return {
    type: t.type,
    ...(t.livekitServiceUrl !== undefined ? { livekit_service_url: t.livekitServiceUrl } : {}),
    ...(t.livekitAlias !== undefined ? { livekit_alias: t.livekitAlias } : {}),
  };
}

/** The state form's content; `expiresMs` is relative to `createdTs`. */
export function stateMembershipContent(
  own: OwnMembership,
  createdTs: number,
  expiresMs: number,
): Record<string, unknown> {
  return {
    application: own.session.application,
    call_id: own.session.id,
    scope: ROOM_SCOPE,
    device_id: own.deviceId,
    membershipID: own.memberId ?? `${own.userId}:${own.deviceId}`,
    created_ts: createdTs,
    expires: expiresMs,
    focus_active: { type: "livekit", focus_selection: own.focusSelection ?? "oldest_membership" },
    foci_preferred: own.fociPreferred.map(transportJson),
    ...(own.callIntent !== undefined ? { "m.call.intent": own.callIntent } : {}),
  };
}

/** The sticky form's content (both transport field names, for old and new readers). */
export function stickyMembershipContent(own: OwnMembership): Record<string, unknown> {
  const memberId = own.memberId ?? `${own.userId}:${own.deviceId}`;
  const transports = own.fociPreferred.map(transportJson);
  return {
    slot_id: slotIdOf(own.session),
    application: {
      type: own.session.application,
      ...(own.callIntent !== undefined ? { "m.call.intent": own.callIntent } : {}),
    },
    member: { user_id: own.userId, device_id: own.deviceId, id: memberId },
    rtc_transports: transports,
    transports: { published: transports, can_subscribe: [] },
    versions: [],
    msc4354_sticky_key: memberId,
  };
}

/** The sticky leave: empty apart from the key that ties it to the join. */
export function stickyLeaveContent(memberId: string): Record<string, unknown> {
  return { msc4354_sticky_key: memberId };
}

export { CALL_MEMBER_EVENT, RTC_MEMBER_EVENT };
