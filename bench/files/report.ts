/**
 * The arithmetic of the files bench, apart from the I/O so it is tested:
 * throughput in MB/s (10^6 bytes) from bytes and milliseconds, the ratio
 * of Lattice to the raw transfer, the median of repeats.
 */

/** Megabytes (10^6 bytes) per second. */
export function megabytesPerSecond(bytes: number, ms: number): number {
  if (!(ms > 0)) return Number.POSITIVE_INFINITY;
  return bytes / 1e6 / (ms / 1000);
}

/** The median of the values (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Lattice's throughput as a percentage of the raw transfer's. */
export function percentOfRaw(lattice: number, raw: number): number {
  return (lattice / raw) * 100;
}
