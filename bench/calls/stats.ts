/**
 * The arithmetic of bench/calls: median and p95 (nearest rank) of a list
 * of call timings, the per-client summary and the Lattice / matrix-js-sdk
 * ratios, and the verdict on the targets of issue 17 (Lattice no slower
 * than matrix-js-sdk at p95, ringing under 500 ms on loopback).
 */

/** Where each call's two figures came from. */
export interface CallTiming {
  /** Pressing Call on one page to the call ringing on the other (ms). */
  ringingMs: number;
  /** Pressing Accept to both sides connected (ms). */
  connectedMs: number;
  /** Pressing Call to the invite's send resolving on the caller (ms), where the peer reports it. */
  sentMs?: number;
  /** The caller's set-up steps from pressing Call (ms): media captured, offer made, invite handed to the send queue. */
  steps?: { mediaMs: number; offerMs: number; sendingMs: number };
}

export interface Spread {
  median: number;
  p95: number;
}

export interface ClientSummary {
  calls: number;
  ringing: Spread;
  connected: Spread;
}

/** Targets of issue 17. */
export const TARGETS = { ringingMs: 500, p95Ratio: 1 } as const;

/** The p-th percentile by nearest rank (p95 of 20 values is the 19th smallest). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new Error("percentile of nothing");
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] ?? 0;
}

/** The median (mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error("median of nothing");
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const upper = sorted[mid] ?? 0;
  return sorted.length % 2 === 1 ? upper : ((sorted[mid - 1] ?? 0) + upper) / 2;
}

function spread(values: readonly number[]): Spread {
  return { median: median(values), p95: percentile(values, 95) };
}

export function summarise(timings: readonly CallTiming[]): ClientSummary {
  return {
    calls: timings.length,
    ringing: spread(timings.map((t) => t.ringingMs)),
    connected: spread(timings.map((t) => t.connectedMs)),
  };
}

/** The medians of the caller's set-up parts (ms), over the calls that report them; null if none does. */
export function stepMedians(timings: readonly CallTiming[]): Record<string, number> | null {
  const withSteps = timings.filter(
    (t): t is CallTiming & Required<Pick<CallTiming, "steps" | "sentMs">> =>
      t.steps !== undefined && t.sentMs !== undefined,
  );
  if (withSteps.length === 0) return null;
  return {
    media: median(withSteps.map((t) => t.steps.mediaMs)),
    offer: median(withSteps.map((t) => t.steps.offerMs - t.steps.mediaMs)),
    queued: median(withSteps.map((t) => t.steps.sendingMs - t.steps.offerMs)),
    server: median(withSteps.map((t) => t.sentMs - t.steps.sendingMs)),
    delivered: median(withSteps.map((t) => t.ringingMs - t.sentMs)),
  };
}

/** Lattice / matrix-js-sdk for each figure (below 1: Lattice faster). */
export function ratios(lattice: ClientSummary, jssdk: ClientSummary): Record<string, number> {
  return {
    ringingMedian: lattice.ringing.median / jssdk.ringing.median,
    ringingP95: lattice.ringing.p95 / jssdk.ringing.p95,
    connectedMedian: lattice.connected.median / jssdk.connected.median,
    connectedP95: lattice.connected.p95 / jssdk.connected.p95,
  };
}

/** Whether each target holds. */
export function verdict(lattice: ClientSummary, jssdk: ClientSummary): Record<string, boolean> {
  return {
    ringingUnder500ms: lattice.ringing.p95 < TARGETS.ringingMs,
    ringingP95NoSlower: lattice.ringing.p95 <= jssdk.ringing.p95 * TARGETS.p95Ratio,
    connectedP95NoSlower: lattice.connected.p95 <= jssdk.connected.p95 * TARGETS.p95Ratio,
  };
}
