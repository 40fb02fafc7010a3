/**
 * Which memberships count for a session (SPEC §5): the ones for this
 * session, not expired, from a sender joined to the room; per device the
 * newest wins. Also the active focus under "oldest_membership".
 */
import type { CallMembership, RtcTransport, SessionDescription } from "./types";

export interface MembershipFilter {
  readonly session: SessionDescription;
  readonly now: number;
  readonly isJoined: (userId: string) => boolean;
}

export function sameSession(a: SessionDescription, b: SessionDescription): boolean {
  return a.application === b.application && a.id === b.id && a.scope === b.scope;
}

/** The device key of a membership: JSON, so no id can collide with another or with a prototype key. */
export function deviceKey(userId: string, deviceId: string): string {
  return JSON.stringify([userId, deviceId]);
}

/** Valid memberships of the session, oldest first. */
export function validMemberships(all: Iterable<CallMembership>, filter: MembershipFilter): CallMembership[] {
  const byDevice = new Map<string, CallMembership>();
  for (const m of all) {
    if (!sameSession(m.session, filter.session)) continue;
    if (m.expiresAt <= filter.now) continue;
    if (!filter.isJoined(m.sender)) continue;
    const key = deviceKey(m.sender, m.deviceId);
    const seen = byDevice.get(key);
    if (seen === undefined || m.createdTs > seen.createdTs) byDevice.set(key, m);
  }
  return [...byDevice.values()].sort((a, b) => a.createdTs - b.createdTs || a.sender.localeCompare(b.sender));
}

/**
 * The transport a member publishes to: under "oldest_membership" the
 * oldest member's first preferred focus, otherwise its own first.
 */
export function activeTransport(
  member: CallMembership,
  oldest: CallMembership | undefined,
): RtcTransport | undefined {
  if (member.focusActive?.focusSelection === "oldest_membership" && oldest !== undefined)
    return oldest.fociPreferred[0];
  return member.fociPreferred[0];
}

/** The soonest expiry among memberships still valid, to re-check then. */
export function nextExpiry(memberships: readonly CallMembership[]): number | undefined {
  let soonest: number | undefined;
  for (const m of memberships) if (soonest === undefined || m.expiresAt < soonest) soonest = m.expiresAt;
  return soonest;
}
