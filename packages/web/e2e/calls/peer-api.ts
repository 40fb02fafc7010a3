/**
 * The one interface every call peer page exposes as `window.peer`, whatever
 * client runs in it (Lattice over the browser media platform, or
 * matrix-js-sdk's MatrixCall), so a test or the bench drives both the same
 * way through `page.evaluate`. Times are epoch milliseconds with sub-ms
 * precision (performance.timeOrigin + performance.now()), comparable
 * between pages of one machine.
 */

/** Who the page signs in as, and how it calls. */
export interface PeerSession {
  baseUrl: string;
  userId: string;
  accessToken: string;
  deviceId: string;
  /** Relay candidates only (iceTransportPolicy "relay"). */
  forceTurn?: boolean;
}

/** One call the page knows, in the page's own words mapped to common fields. */
export interface PeerCall {
  callId: string;
  direction: "inbound" | "outbound";
  /** The client's state name (both use the same names: ringing, connected, ended...). */
  state: string;
  hangupParty?: string;
  hangupReason?: string;
  /** When the page saw it: placed (outbound, before the client's call), ringing (inbound), connected, ended. */
  /** `sent`: the caller's invite is out (its send resolved), where the client reports it. */
  /** The caller's set-up steps where the client reports them: media_ready, offer_created, invite_sending. */
  marks: Partial<
    Record<
      | "placed"
      | "media_ready"
      | "offer_created"
      | "invite_sending"
      | "sent"
      | "ringing"
      | "answered"
      | "connected"
      | "ended",
      number
    >
  >;
}

/** What a call test or the bench calls on `window.peer`. */
export interface PeerApi {
  /** Signs in and resolves after the first sync (and the TURN fetch). */
  start(session: PeerSession): Promise<void>;
  /** Places a call to the other member of `roomId` (invitee `opponent`); resolves with its call id once the invite is out. */
  place(roomId: string, opponent: string, video: boolean): Promise<string>;
  /** Answers the ringing call `callId`. */
  answer(callId: string, video: boolean): Promise<void>;
  /** Hangs up `callId` (user_hangup). */
  hangup(callId: string): Promise<void>;
  /** Every call the page has seen, oldest first. */
  calls(): PeerCall[];
  /** The candidate type of the selected pair of `callId`'s connection ("relay", "host"...), from getStats. */
  selectedCandidateType(callId: string): Promise<string | undefined>;
  /** Lattice only: the SDK's pre-call check with the current TURN servers (relay candidates, reachability). */
  preCallCheck?(): Promise<{ relay: number; turnConfigured: boolean; turnReachable: boolean }>;
  /** Stops the client. */
  stop(): Promise<void>;
}

declare global {
  interface Window {
    peer?: PeerApi;
  }
}

/** The current time as an epoch millisecond with sub-ms precision. */
export function nowMs(): number {
  return performance.timeOrigin + performance.now();
}

/** Shows `stream` in the page's remote video element (muted) and plays its audio through an audio element. */
export function showRemoteStream(stream: MediaStream): void {
  const video = document.getElementById("remote-video");
  if (video instanceof HTMLVideoElement && video.srcObject !== stream) {
    video.srcObject = stream;
    void video.play().catch(() => undefined);
  }
  const audio = document.getElementById("remote-audio");
  if (audio instanceof HTMLAudioElement && audio.srcObject !== stream) {
    audio.srcObject = stream;
    void audio.play().catch(() => undefined);
  }
}

/** The candidate type of the nominated or selected candidate pair in a stats report. */
export function selectedTypeOf(report: RTCStatsReport): string | undefined {
  const entries = new Map<string, Record<string, unknown>>();
  report.forEach((v: Record<string, unknown>) => entries.set(String(v["id"]), v));
  let pairId: string | undefined;
  for (const e of entries.values())
    if (e["type"] === "transport" && typeof e["selectedCandidatePairId"] === "string")
      pairId = e["selectedCandidatePairId"];
  const pair =
    (pairId !== undefined ? entries.get(pairId) : undefined) ??
    [...entries.values()].find((e) => e["type"] === "candidate-pair" && e["nominated"] === true);
  const local = pair ? entries.get(String(pair["localCandidateId"])) : undefined;
  const type = local?.["candidateType"];
  return typeof type === "string" ? type : undefined;
}
