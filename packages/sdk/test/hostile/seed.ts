/**
 * The hostile-input suite's seed and run counts. Every property runs with
 * one fixed seed, printed once, so a CI failure replays exactly:
 * HOSTILE_SEED=<seed> reruns with another seed to explore, and fast-check
 * prints the seed and path of any counterexample.
 */
import type { Parameters } from "fast-check";

/** The fixed seed (override with HOSTILE_SEED). */
export const HOSTILE_SEED = Number.parseInt(process.env["HOSTILE_SEED"] ?? "20261126", 10);

let printed = false;

/** fast-check parameters for a property of `numRuns` cases, under the suite's seed. */
export function seeded<T>(numRuns: number): Parameters<T> {
  if (!printed) {
    printed = true;
    console.info(`hostile-input suite: fast-check seed ${HOSTILE_SEED} (set HOSTILE_SEED to change it)`);
  }
  return { seed: HOSTILE_SEED, numRuns, endOnFailure: true };
}
