/**
 * Summaries of the sync benchmark: medians over the repeats, the Lattice /
 * matrix-js-sdk ratios, the targets of issue 4 (at 3,000 rooms: at least 5x
 * faster to the first usable room list, at most a third of the heap), the
 * printed table and the JSON written to bench/results/ (git-ignored).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { FixtureMeta } from "./fixture";
import type { ChildResult } from "./protocol";

export const CLIENTS = ["lattice", "js-sdk"] as const;
export type ClientName = (typeof CLIENTS)[number];

/** Target ratios (Lattice / js-sdk) at TARGET_ROOMS. */
export const TARGETS = { initialRatio: 1 / 5, heapRatio: 1 / 3 } as const;
export const TARGET_ROOMS = 3000;

export interface Medians {
  initialMs: number;
  incrementalMs: number;
  heapBytes: number;
  baselineHeapBytes: number;
}

export interface SizeSummary {
  rooms: number;
  meta: FixtureMeta;
  runs: Record<ClientName, ChildResult[]>;
  medians: Record<ClientName, Medians>;
  /** Lattice / js-sdk on the medians. */
  ratios: { initial: number; incremental: number; heap: number };
  /** Set at TARGET_ROOMS only. */
  targetsMet?: { initial: boolean; heap: boolean };
}

/** The median of a non-empty list (mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error("median of nothing");
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const upper = sorted[mid] ?? 0;
  return sorted.length % 2 === 1 ? upper : ((sorted[mid - 1] ?? 0) + upper) / 2;
}

function medians(results: readonly ChildResult[]): Medians {
  return {
    initialMs: median(results.map((r) => r.initialMs)),
    incrementalMs: median(results.map((r) => r.incrementalMs)),
    heapBytes: median(results.map((r) => r.heapBytes)),
    baselineHeapBytes: median(results.map((r) => r.baselineHeapBytes)),
  };
}

/** Medians, ratios and (at TARGET_ROOMS) the verdict for one fixture size. */
export function summarise(meta: FixtureMeta, runs: Record<ClientName, ChildResult[]>): SizeSummary {
  const lattice = medians(runs.lattice);
  const jssdk = medians(runs["js-sdk"]);
  const ratios = {
    initial: lattice.initialMs / jssdk.initialMs,
    incremental: lattice.incrementalMs / jssdk.incrementalMs,
    heap: lattice.heapBytes / jssdk.heapBytes,
  };
  const summary: SizeSummary = {
    rooms: meta.rooms,
    meta,
    runs,
    medians: { lattice, "js-sdk": jssdk },
    ratios,
  };
  if (meta.rooms === TARGET_ROOMS) {
    summary.targetsMet = {
      initial: ratios.initial <= TARGETS.initialRatio,
      heap: ratios.heap <= TARGETS.heapRatio,
    };
  }
  return summary;
}

/** The machine the run was on. */
export function machine(): Record<string, string | number> {
  return {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? "unknown",
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    loadAverage1m: Math.round((loadavg()[0] ?? 0) * 100) / 100,
  };
}

const mb = (bytes: number): string => (bytes / 2 ** 20).toFixed(1);
const ms = (value: number): string => value.toFixed(0);
const x = (ratio: number): string => ratio.toFixed(2);

/** The table printed at the end of a run. */
export function formatTable(summaries: readonly SizeSummary[]): string {
  const rows: string[][] = [
    ["rooms", "client", "initial ms", "200 batches ms", "heap MB", "heap over baseline MB"],
  ];
  for (const s of summaries) {
    for (const client of CLIENTS) {
      const m = s.medians[client];
      rows.push([
        String(s.rooms),
        client,
        ms(m.initialMs),
        ms(m.incrementalMs),
        mb(m.heapBytes),
        mb(m.heapBytes - m.baselineHeapBytes),
      ]);
    }
    rows.push([
      String(s.rooms),
      "ratio L/js",
      x(s.ratios.initial),
      x(s.ratios.incremental),
      x(s.ratios.heap),
      "",
    ]);
  }
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length))) ?? [];
  const lines = rows.map((r) => r.map((cell, i) => cell.padStart(widths[i] ?? 0)).join("  "));
  for (const s of summaries) {
    if (!s.targetsMet) continue;
    lines.push(
      `targets at ${s.rooms} rooms: initial ratio ${x(s.ratios.initial)} (need <= ${x(TARGETS.initialRatio)}): ${s.targetsMet.initial ? "met" : "NOT met"}; ` +
        `heap ratio ${x(s.ratios.heap)} (need <= ${x(TARGETS.heapRatio)}): ${s.targetsMet.heap ? "met" : "NOT met"}`,
    );
  }
  return lines.join("\n");
}

export const RESULTS_DIR = fileURLToPath(new URL("../results/", import.meta.url));

/** Writes the run to bench/results/sync-<time>.json and sync-latest.json; returns the first path. */
export function writeResults(document: unknown, at: Date): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const text = `${JSON.stringify(document, null, 2)}\n`;
  const file = join(RESULTS_DIR, `sync-${at.toISOString().replace(/[:.]/g, "-")}.json`);
  writeFileSync(file, text);
  writeFileSync(join(RESULTS_DIR, "sync-latest.json"), text);
  return file;
}
