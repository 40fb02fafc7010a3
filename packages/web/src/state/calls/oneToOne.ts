/**
 * How a call in a room of two goes (Settings › Voice & video, "1:1 calls
 * with"): a legacy 1:1 call (m.call.*, ADR 0012) or a MatrixRTC call on
 * LiveKit (ADR 0030) that rings the other side. MatrixRTC is taken only when
 * the server offers a LiveKit focus (the same discovery as group calls) and
 * the other side shows it can join; otherwise the call is a legacy one and
 * the user is told why (`OneToOneFallback`).
 *
 * "The other side supports it" is read from what the rooms show, since
 * Matrix has no capability a client publishes for MatrixRTC calls: the
 * other user's client has written a MatrixRTC membership (the state form
 * org.matrix.msc3401.call.member with application "m.call", or its left
 * form `{}` under a per-device state key; the sticky form while it is in a
 * session) or rang in MatrixRTC, in this room or any other room we share.
 * Mesh group calls use the same state type but a user-id state key and an
 * m.calls list, so they never count. A MatrixRTC call the other user is in
 * already is joined whatever the preference (a legacy call would ring
 * someone who is waiting in the MatrixRTC call).
 */
import { offersLiveKit } from "../../sdk";
import type { Client, RtcService } from "../../sdk";
import type { OneToOneCallRoute } from "./CallSettings";

/** The MatrixRTC membership's state form (constants of the SDK's rtc layer, kept off the first screen). */
const CALL_MEMBER_EVENT = "org.matrix.msc3401.call.member";

/** How long a 1:1 ring lasts: the legacy invite's 60 s (peers cap a ring at 90 s). */
export const ONE_TO_ONE_RING_MS = 60_000;

/** Why a call that could have gone through MatrixRTC is a legacy one. */
export type OneToOneFallback = "no-livekit" | "peer-unsupported";

/**
 * A line about the last 1:1 call, until the next one or dismissed: why it is
 * a legacy call although MatrixRTC was chosen, or how its ring ended.
 */
export interface CallNotice {
  readonly kind: OneToOneFallback | "declined" | "no-answer";
  /** The other person's display name. */
  readonly name: string;
}

export type OneToOneDecision =
  | { readonly route: "legacy"; readonly reason: "preference" }
  | { readonly route: "legacy"; readonly reason: OneToOneFallback }
  | { readonly route: "matrixrtc"; readonly reason: "peer-supports" | "call-running" };

/** What the decision reads. */
export interface OneToOneFacts {
  readonly preference: OneToOneCallRoute;
  /** The server offers a LiveKit focus (only asked when it matters). */
  readonly livekit: boolean;
  /** The other user's client has shown MatrixRTC support (see the overview). */
  readonly peerSupports: boolean;
  /** The other user is in a MatrixRTC call in this room now. */
  readonly callRunning: boolean;
}

/** The route of a 1:1 call; a pure function of the facts. */
export function decideOneToOne(facts: OneToOneFacts): OneToOneDecision {
  if (facts.callRunning && facts.livekit) return { route: "matrixrtc", reason: "call-running" };
  if (facts.preference === "legacy") return { route: "legacy", reason: "preference" };
  if (!facts.livekit) return { route: "legacy", reason: "no-livekit" };
  if (facts.peerSupports) return { route: "matrixrtc", reason: "peer-supports" };
  return { route: "legacy", reason: "peer-unsupported" };
}

/** The fallback the user is told of, or undefined (MatrixRTC, or legacy by choice). */
export function fallbackOf(decision: OneToOneDecision): OneToOneFallback | undefined {
  return decision.route === "legacy" && decision.reason !== "preference" ? decision.reason : undefined;
}

/** A room's state as far as this module reads it. */
export interface StateView {
  ofType(type: string): ReadonlyMap<string, { readonly sender?: unknown; readonly content?: unknown }>;
}

/** Whether a call.member state entry is a MatrixRTC membership, current or left, that `userId` wrote. */
export function isRtcMembershipBy(
  userId: string,
  stateKey: string,
  entry: { readonly sender?: unknown; readonly content?: unknown },
): boolean {
  if (entry.sender !== userId) return false;
  const content = entry.content;
  if (typeof content !== "object" || content === null || Array.isArray(content)) return false;
  if ((content as Record<string, unknown>)["application"] === "m.call") return true;
  // Left: {} under a per-device key (`_@u:hs_DEVICE_m.call`, `@u:hs_DEVICE`); a mesh member is keyed `@u:hs`.
  return Object.keys(content).length === 0 && stateKey !== userId;
}

/** Whether `peerId` has written a MatrixRTC membership in any of these rooms' state. */
export function stateShowsMatrixRtc(peerId: string, states: Iterable<StateView>): boolean {
  for (const state of states)
    for (const [stateKey, entry] of state.ofType(CALL_MEMBER_EVENT))
      if (isRtcMembershipBy(peerId, stateKey, entry)) return true;
  return false;
}

/** The other joined member of a room of two, or undefined. */
export function peerOf(client: Client, roomId: string): string | undefined {
  const members = client.rooms.find(roomId)?.getSnapshot().state.members;
  for (const m of members?.values() ?? [])
    if (m.userId !== client.userId && m.membership === "join") return m.userId;
  return undefined;
}

/**
 * Gathers the facts for a call in `roomId` with `peerId` and decides. The
 * server's transports are asked only when MatrixRTC could be taken.
 */
export async function routeOneToOne(
  client: Client,
  rtc: RtcService,
  roomId: string,
  peerId: string,
  preference: OneToOneCallRoute,
): Promise<OneToOneDecision> {
  // Sessions with members only: asking for every room's session would start one per room.
  const sessions = rtc.active.getSnapshot();
  const sessionHas = (room: string): boolean =>
    sessions
      .get(room)
      ?.memberships.getSnapshot()
      .some((m) => m.sender === peerId) ?? false;
  const callRunning = sessionHas(roomId);
  if (!callRunning && preference === "legacy") return { route: "legacy", reason: "preference" };
  const livekit = await offersLiveKit(rtc);
  const rooms = [...client.rooms.all.getSnapshot().values()];
  const peerSupports =
    callRunning ||
    stateShowsMatrixRtc(
      peerId,
      rooms.map((r) => r.getSnapshot().state),
    ) ||
    [...sessions.keys()].some(sessionHas) ||
    [...rtc.ringsOf(roomId).getSnapshot().values()].some((r) => r.ring.sender === peerId);
  return decideOneToOne({ preference, livekit, peerSupports, callRunning });
}

/** The ring's end as the caller sees it: declined or unanswered end the call. */
export type RingOutcome = "answered" | "declined" | "expired" | "cancelled";

/**
 * Rings `peerId` for the MatrixRTC call we just joined in `roomId` (the RTC
 * notification of type "ring" with the call's intent, and the deprecated
 * form), shows "Calling…" while it rings, and reports how it ended. Returns
 * the stop of its watch.
 */
export async function ringPeer(
  rtc: RtcService,
  roomId: string,
  peerId: string,
  video: boolean,
  ringingOut: { set(on: boolean): void },
  ended: (outcome: RingOutcome) => void,
): Promise<() => void> {
  ringingOut.set(true);
  let id: string | undefined;
  try {
    id = await rtc.ring(roomId, {
      userIds: [peerId],
      callIntent: video ? "video" : "audio",
      lifetimeMs: ONE_TO_ONE_RING_MS,
    });
  } finally {
    if (id === undefined) ringingOut.set(false);
  }
  if (id === undefined) return () => undefined;
  const ringId = id;
  const rings = rtc.ringsOf(roomId);
  let done = false;
  const check = (): void => {
    const state = rings.getSnapshot().get(ringId)?.state;
    if (done || state === undefined || state === "ringing") return;
    done = true;
    stop();
    ringingOut.set(false);
    ended(state);
  };
  const stop = rings.subscribe(check);
  check(); // the echo may have come and gone before the watch
  return () => {
    done = true;
    stop();
  };
}

/**
 * Ends a MatrixRTC 1:1 call when the other person leaves it: once they have
 * been in the room's session, their membership going (a hang-up, or their
 * delayed leave after a crash) calls `left`, as a legacy call ends on
 * hang-up. Returns the stop of its watch.
 */
export function endWhenPeerLeaves(
  memberships: {
    getSnapshot(): readonly { readonly sender: string }[];
    subscribe(listener: () => void): () => void;
  },
  peerId: string,
  left: () => void,
): () => void {
  let seen = false;
  let done = false;
  const check = (): void => {
    if (done) return;
    if (memberships.getSnapshot().some((m) => m.sender === peerId)) seen = true;
    else if (seen) {
      done = true;
      stop();
      left();
    }
  };
  const stop = memberships.subscribe(check);
  check();
  return () => {
    done = true;
    stop();
  };
}

/** The view model of a MatrixRTC 1:1 call, as its follow-up reads it. */
export interface OneToOneRtcCall {
  readonly roomId: string;
  readonly status: { subscribe(listener: (status: string) => void): () => void };
  readonly ringingOut: { set(on: boolean): void };
}

/**
 * The follow-up of a joined MatrixRTC 1:1 call: rings `peerId` when `ring`
 * says so, and calls `end` once (with "declined" or "no-answer" when the
 * ring ended so, nothing when the other person left after being in). The
 * watches stop when the call ends.
 */
export async function followOneToOne(
  rtc: RtcService,
  call: OneToOneRtcCall,
  peerId: string,
  ring: { video: boolean } | false,
  end: (outcome?: "declined" | "no-answer") => void,
): Promise<void> {
  const stops: Array<() => void> = [];
  let ended = false;
  const finish = (outcome?: "declined" | "no-answer"): void => {
    if (ended) return;
    ended = true;
    end(outcome);
  };
  const unsubscribe = call.status.subscribe((status) => {
    if (status !== "ended") return;
    unsubscribe();
    ended = true;
    for (const stop of stops.splice(0)) stop();
  });
  stops.push(endWhenPeerLeaves(rtc.session(call.roomId).memberships, peerId, () => finish()));
  if (ring === false) return;
  const stopRing = await ringPeer(rtc, call.roomId, peerId, ring.video, call.ringingOut, (outcome) => {
    if (outcome === "declined") finish("declined");
    else if (outcome === "expired") finish("no-answer");
  });
  if (ended) stopRing();
  else stops.push(stopRing);
}
