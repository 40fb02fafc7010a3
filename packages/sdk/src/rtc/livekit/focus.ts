/**
 * Focus choice: which LiveKit SFU each member publishes to, as its
 * membership's focus selection says.
 * - `multi_sfu` (Element Call's default, and the sticky form, which
 *   publishes to its first transport): each member on their own first
 *   preferred LiveKit focus, usually their homeserver's.
 * - `oldest_membership` (legacy): everyone on the oldest member's first
 *   preferred focus, so a call stays on one SFU.
 * We publish to our own focus and subscribe on every focus someone
 * publishes to; one connection per distinct token-service URL.
 */
import type { CallMembership, FocusSelection, RtcTransport } from "../membership/types";

export const LIVEKIT_TRANSPORT = "livekit";

/** A LiveKit focus: its token service, as memberships name it. */
export interface LiveKitFocus {
  readonly serviceUrl: string;
  /** The legacy membership's livekit_alias (the room id), when given. */
  readonly alias?: string;
}

/** The LiveKit foci of a transport list, in order. */
export function livekitFoci(transports: readonly RtcTransport[]): LiveKitFocus[] {
  const out: LiveKitFocus[] = [];
  for (const t of transports) {
    if (t.type !== LIVEKIT_TRANSPORT || !t.livekitServiceUrl) continue;
    out.push({ serviceUrl: t.livekitServiceUrl, ...(t.livekitAlias ? { alias: t.livekitAlias } : {}) });
  }
  return out;
}

/** The selection a membership asks for: the sticky form and unknown values count as multi-SFU. */
export function selectionOf(membership: CallMembership): FocusSelection {
  return membership.focusActive?.focusSelection === "oldest_membership" ? "oldest_membership" : "multi_sfu";
}

function oldestFocus(oldestFirst: readonly CallMembership[]): LiveKitFocus | undefined {
  for (const m of oldestFirst) {
    const first = livekitFoci(m.fociPreferred)[0];
    // The oldest member with a LiveKit focus: one without (another transport type) cannot host us.
    if (first) return first;
  }
  return undefined;
}

/**
 * Where `membership` publishes, given the session's memberships oldest
 * first; undefined when it offers no LiveKit focus and none is to be had.
 */
export function publishFocusOf(
  membership: CallMembership,
  oldestFirst: readonly CallMembership[],
): LiveKitFocus | undefined {
  const own = livekitFoci(membership.fociPreferred)[0];
  if (selectionOf(membership) === "oldest_membership") return oldestFocus(oldestFirst) ?? own;
  return own;
}

/** Where we publish: our own first focus (multi-SFU), or the oldest member's. */
export function ownPublishFocus(
  ownPreferred: readonly RtcTransport[],
  selection: FocusSelection,
  others: readonly CallMembership[],
): LiveKitFocus | undefined {
  const own = livekitFoci(ownPreferred)[0];
  if (selection === "oldest_membership") return oldestFocus(others) ?? own;
  return own;
}

/** Every focus to be connected to: ours first, then each other's publish focus, one per service URL. */
export function focusesToJoin(
  own: LiveKitFocus | undefined,
  oldestFirst: readonly CallMembership[],
): LiveKitFocus[] {
  const seen = new Map<string, LiveKitFocus>();
  if (own) seen.set(own.serviceUrl, own);
  for (const m of oldestFirst) {
    const focus = publishFocusOf(m, oldestFirst);
    if (focus && !seen.has(focus.serviceUrl)) seen.set(focus.serviceUrl, focus);
  }
  return [...seen.values()];
}
