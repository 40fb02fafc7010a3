/**
 * The pre-call check: a throw-away peer connection gathers ICE candidates
 * with the call's ICE servers and reports what it found: host, srflx (the
 * STUN server answered) and relay (the TURN server allocated) candidates.
 * The web app shows it before a call and as the call's troubleshooting page.
 */
import type { Scheduler } from "../util/scheduler";
import type { IceServer, MediaPlatform } from "./platform";
import { OwnedTimers } from "./timers";

export type CandidateType = "host" | "srflx" | "prflx" | "relay";

export interface PreCallCheckResult {
  /** Candidates gathered, by type. */
  candidateTypes: Record<CandidateType, number>;
  stunConfigured: boolean;
  turnConfigured: boolean;
  /** A server-reflexive candidate came back: a STUN (or TURN) server answered. */
  stunReachable: boolean;
  /** A relay candidate came back: the TURN server allocated. */
  turnReachable: boolean;
  /** Gathering did not complete in time; the counts are what arrived. */
  timedOut: boolean;
  /** The peer connection or the offer failed (e.g. an invalid ICE server URL). */
  error?: string;
}

export interface PreCallCheckOptions {
  platform: MediaPlatform;
  scheduler: Scheduler;
  iceServers: IceServer[];
  /** How long to wait for gathering to complete; default 10 s. */
  timeoutMs?: number;
}

/** The `typ` of an ICE candidate line. */
export function candidateType(candidate: string): CandidateType | undefined {
  const match = / typ (host|srflx|prflx|relay)\b/.exec(candidate);
  return match?.[1] as CandidateType | undefined;
}

export async function runPreCallCheck(options: PreCallCheckOptions): Promise<PreCallCheckResult> {
  const urls = options.iceServers.flatMap((s) => (Array.isArray(s.urls) ? s.urls : [s.urls]));
  const result: PreCallCheckResult = {
    candidateTypes: { host: 0, srflx: 0, prflx: 0, relay: 0 },
    stunConfigured: urls.some((u) => u.startsWith("stun:") || u.startsWith("stuns:")),
    turnConfigured: urls.some((u) => u.startsWith("turn:") || u.startsWith("turns:")),
    stunReachable: false,
    turnReachable: false,
    timedOut: false,
  };
  const timers = new OwnedTimers(options.scheduler);
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (finish = resolve));
  try {
    const peer = options.platform.createPeerConnection(
      { iceServers: options.iceServers },
      {
        onIceCandidate: (candidate) => {
          if (!candidate) return finish();
          const type = candidateType(candidate.candidate);
          if (type) result.candidateTypes[type] += 1;
        },
        onIceConnectionStateChange: () => undefined,
        onNegotiationNeeded: () => undefined,
        onTrack: () => undefined,
      },
    );
    try {
      peer.addTransceiver("audio", { direction: "recvonly" });
      await peer.setLocalDescription(await peer.createOffer());
      timers.after(options.timeoutMs ?? 10_000, () => {
        result.timedOut = true;
        finish();
      });
      await done;
    } finally {
      timers.clear();
      peer.close();
    }
  } catch (error) {
    result.error = error instanceof Error ? error.message : String(error);
  }
  result.stunReachable = result.candidateTypes.srflx > 0;
  result.turnReachable = result.candidateTypes.relay > 0;
  return result;
}
