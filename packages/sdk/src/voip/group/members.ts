/**
 * Member state of a mesh group call: who takes part (valid devices of
 * joined users, SPEC §5), and our own device entry written into our member
 * state event (expires 1 hour ahead, re-sent at 3/4 of that).
 */
import { GROUP_CALL_TIMINGS, validDevices } from "./types";
import type { GroupCallMemberContent, MemberDevice, Participant } from "./types";

/** What a group call reads of its room. */
export interface GroupCallRoom {
  /** The member state contents (org.matrix.msc3401.call.member), by state key (user id). */
  memberStates(): ReadonlyMap<string, unknown>;
  /** Whether the user is joined to the room. */
  isJoined(userId: string): boolean;
}

/** Participants of `groupCallId`, except our own device. */
export function participantsOf(
  room: GroupCallRoom,
  groupCallId: string,
  me: { userId: string; deviceId: string },
  now: number,
): Participant[] {
  const out: Participant[] = [];
  for (const [userId, content] of room.memberStates()) {
    for (const p of validDevices(userId, content, groupCallId, now, room.isJoined(userId)))
      if (!(p.userId === me.userId && p.deviceId === me.deviceId)) out.push(p);
  }
  return out;
}

/** Key of a participant's call. */
export const participantKey = (p: { userId: string; deviceId: string }): string =>
  `${p.userId}|${p.deviceId}`;

/**
 * Our member state content with our device set (entered) or removed (left),
 * keeping every other call and device as it is.
 */
export function withOwnDevice(
  previous: unknown,
  groupCallId: string,
  device: MemberDevice | undefined,
  deviceId: string,
): GroupCallMemberContent {
  const calls =
    typeof previous === "object" &&
    previous !== null &&
    Array.isArray((previous as Record<string, unknown>)["m.calls"])
      ? ((previous as GroupCallMemberContent)["m.calls"] ?? [])
      : [];
  const others = calls.filter((c) => c["m.call_id"] !== groupCallId);
  const mine = calls.find((c) => c["m.call_id"] === groupCallId);
  const devices = (Array.isArray(mine?.["m.devices"]) ? mine["m.devices"] : []).filter(
    (d) => d.device_id !== deviceId,
  );
  if (device) devices.push(device);
  return {
    "m.calls": devices.length > 0 ? [...others, { "m.call_id": groupCallId, "m.devices": devices }] : others,
  };
}

/** Our device entry: it expires an hour from now. */
export function ownDevice(
  deviceId: string,
  sessionId: string,
  now: number,
  purposes: string[],
): MemberDevice {
  return {
    device_id: deviceId,
    session_id: sessionId,
    expires_ts: now + GROUP_CALL_TIMINGS.deviceExpiryMs,
    feeds: purposes.map((purpose) => ({ purpose })),
  };
}
