/**
 * The arithmetic of the LiveKit call bench (bench/calls/livekit.ts), kept
 * pure so it is unit-tested: which probe records time a join (the Join
 * click and the first remote frame after it), main-thread CPU per second
 * from two Chrome DevTools `Performance.getMetrics` readings, the
 * per-client summaries and the Lattice / Element Call ratios.
 */
import { median, percentile } from "./stats";
import type { Spread } from "./stats";

/** A click the page's probe saw: when (epoch ms, the event's own timestamp) and on what. */
export interface ClickRecord {
  at: number;
  /** data-testid of the nearest marked ancestor ("" if none). */
  testid: string;
  /** Text of the clicked button ("" if none). */
  text: string;
}

/** A remote video frame the probe saw presented (epoch ms). */
export interface FrameRecord {
  at: number;
  /** requestVideoFrameCallback's presentation time, or the probe's poll of the decoded-frame count. */
  via: "rvfc" | "poll";
}

/** The last click accepted by `isJoin`, or null. */
export function lastJoinClick(
  clicks: readonly ClickRecord[],
  isJoin: (c: ClickRecord) => boolean,
): number | null {
  let at: number | null = null;
  for (const c of clicks) if (isJoin(c) && (at === null || c.at > at)) at = c.at;
  return at;
}

/** The earliest remote frame at or after `since`, or null. */
export function firstFrameAfter(frames: readonly FrameRecord[], since: number): number | null {
  let at: number | null = null;
  for (const f of frames) if (f.at >= since && (at === null || f.at < at)) at = f.at;
  return at;
}

/** One `Performance.getMetrics` answer, by metric name (durations in seconds). */
export type MetricMap = Readonly<Record<string, number>>;

/** `Performance.getMetrics`' list as a name → value map. */
export function metricMap(metrics: readonly { name: string; value: number }[]): MetricMap {
  return Object.fromEntries(metrics.map((m) => [m.name, m.value]));
}

/** What one page's main thread did per second of a window (ms of CPU per s of wall time). */
export interface CpuRate {
  /** Tasks run on the main thread (TaskDuration). */
  taskMsPerS: number;
  /** Of which script (ScriptDuration). */
  scriptMsPerS: number;
  /** Layout and style recalculation (LayoutDuration + RecalcStyleDuration). */
  layoutMsPerS: number;
  /** The whole renderer process, every thread (ProcessTime): media decoding, encoding and workers too. */
  processMsPerS: number;
}

function delta(before: MetricMap, after: MetricMap, name: string): number {
  const a = after[name];
  const b = before[name];
  if (a === undefined || b === undefined) throw new Error(`the metric ${name} is missing`);
  return a - b;
}

/**
 * The main thread's rates over the window between two readings. Durations
 * are in seconds of thread time (the bench enables the Performance domain
 * with timeDomain "threadTicks"), the window is `Timestamp`'s delta.
 */
export function cpuRate(before: MetricMap, after: MetricMap): CpuRate {
  const wall = delta(before, after, "Timestamp");
  if (!(wall > 0)) throw new Error("an empty measuring window");
  const rate = (seconds: number): number => (seconds * 1000) / wall;
  return {
    taskMsPerS: rate(delta(before, after, "TaskDuration")),
    scriptMsPerS: rate(delta(before, after, "ScriptDuration")),
    layoutMsPerS: rate(delta(before, after, "LayoutDuration") + delta(before, after, "RecalcStyleDuration")),
    processMsPerS: rate(delta(before, after, "ProcessTime")),
  };
}

/** The sum of several rates (a page's main frame and any out-of-process frame of it). */
export function addRates(rates: readonly CpuRate[]): CpuRate {
  return rates.reduce(
    (s, r) => ({
      taskMsPerS: s.taskMsPerS + r.taskMsPerS,
      scriptMsPerS: s.scriptMsPerS + r.scriptMsPerS,
      layoutMsPerS: s.layoutMsPerS + r.layoutMsPerS,
      processMsPerS: s.processMsPerS + r.processMsPerS,
    }),
    { taskMsPerS: 0, scriptMsPerS: 0, layoutMsPerS: 0, processMsPerS: 0 },
  );
}

/** One client's figures from one run. */
export interface LiveKitSummary {
  /** Joins timed (failed ones are counted apart). */
  joins: number;
  failedJoins: number;
  /** Join click to first remote frame (ms). */
  join: Spread | null;
  /** Main-thread task time per page, over every page and window (ms per s). */
  cpu: Spread | null;
  /** The same for script alone. */
  script: Spread | null;
  /** The renderer process's CPU, every thread (ms per s). */
  process: Spread | null;
}

function spreadOf(values: readonly number[]): Spread | null {
  return values.length === 0 ? null : { median: median(values), p95: percentile(values, 95) };
}

export function summariseLiveKit(
  joinMs: readonly number[],
  failedJoins: number,
  cpu: readonly CpuRate[],
): LiveKitSummary {
  return {
    joins: joinMs.length,
    failedJoins,
    join: spreadOf(joinMs),
    cpu: spreadOf(cpu.map((c) => c.taskMsPerS)),
    script: spreadOf(cpu.map((c) => c.scriptMsPerS)),
    process: spreadOf(cpu.map((c) => c.processMsPerS)),
  };
}

/** Lattice / Element Call for each figure both have (below 1: Lattice faster or lighter). */
export function liveKitRatios(lattice: LiveKitSummary, ec: LiveKitSummary): Record<string, number> {
  const out: Record<string, number> = {};
  const pairs: [string, Spread | null, Spread | null][] = [
    ["join", lattice.join, ec.join],
    ["cpu", lattice.cpu, ec.cpu],
    ["script", lattice.script, ec.script],
    ["process", lattice.process, ec.process],
  ];
  for (const [name, l, e] of pairs) {
    if (l === null || e === null) continue;
    out[`${name}Median`] = l.median / e.median;
    out[`${name}P95`] = l.p95 / e.p95;
  }
  return out;
}

/** The targets of issue 19: Lattice joins faster (median and p95) and uses less main-thread CPU (median). */
export function liveKitVerdict(lattice: LiveKitSummary, ec: LiveKitSummary): Record<string, boolean> | null {
  if (lattice.join === null || ec.join === null || lattice.cpu === null || ec.cpu === null) return null;
  return {
    joinsFaster: lattice.join.median < ec.join.median && lattice.join.p95 < ec.join.p95,
    lessCpu: lattice.cpu.median < ec.cpu.median,
  };
}
