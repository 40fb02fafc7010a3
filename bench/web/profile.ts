/**
 * The heaviest functions of a V8 CPU profile (Chrome DevTools Protocol
 * Profiler.stop), by self time: bench/web prints them for the start from
 * cache so the room list's cost can be located.
 */

/** The part of a CDP profile this reads. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples?: number[];
  timeDeltas?: number[];
}

/** Self time (ms) per function, heaviest first, at most `limit` entries. */
export function topSelfTime(profile: CpuProfile, limit = 12): { fn: string; ms: number }[] {
  const names = new Map<number, string>();
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url.split("/").pop() ?? "";
    names.set(node.id, `${functionName || "(anonymous)"}${file ? ` ${file}:${lineNumber + 1}` : ""}`);
  }
  const self = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const name = names.get(samples[i] ?? -1) ?? "?";
    self.set(name, (self.get(name) ?? 0) + (deltas[i] ?? 0) / 1000);
  }
  return [...self]
    .map(([fn, ms]) => ({ fn, ms }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, limit);
}
