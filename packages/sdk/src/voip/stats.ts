/**
 * A call's connection statistics, summarised from the platform's getStats
 * entries (inbound-rtp, outbound-rtp, the nominated candidate pair): what
 * the call view shows and what group calls poll every 10 s.
 */
import type { StatsEntry } from "./platform";

export interface CallStatsSummary {
  bytesSent: number;
  bytesReceived: number;
  packetsReceived: number;
  packetsLost: number;
  /** Round-trip time of the selected candidate pair, in ms; undefined before one is chosen. */
  roundTripTimeMs: number | undefined;
  /** Jitter of the inbound audio, in ms. */
  jitterMs: number | undefined;
}

const num = (value: unknown): number => (typeof value === "number" && Number.isFinite(value) ? value : 0);

export function summariseStats(entries: readonly StatsEntry[]): CallStatsSummary {
  const summary: CallStatsSummary = {
    bytesSent: 0,
    bytesReceived: 0,
    packetsReceived: 0,
    packetsLost: 0,
    roundTripTimeMs: undefined,
    jitterMs: undefined,
  };
  for (const e of entries) {
    if (e.type === "outbound-rtp") summary.bytesSent += num(e.bytesSent);
    else if (e.type === "inbound-rtp") {
      summary.bytesReceived += num(e.bytesReceived);
      summary.packetsReceived += num(e.packetsReceived);
      summary.packetsLost += num(e.packetsLost);
      if (e.kind === "audio" && typeof e.jitter === "number") summary.jitterMs = e.jitter * 1000;
    } else if (e.type === "candidate-pair" && e.state === "succeeded" && e.nominated !== false) {
      if (typeof e.currentRoundTripTime === "number") summary.roundTripTimeMs = e.currentRoundTripTime * 1000;
    }
  }
  return summary;
}
