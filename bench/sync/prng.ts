/**
 * A small seeded pseudo-random generator (mulberry32) for the bench fixture:
 * the same seed gives the same fixture byte for byte on every machine, so
 * runs compare like with like. Not for anything that needs real randomness.
 */

/** Deterministic random helpers over one 32-bit state. */
export class Prng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max] (both inclusive). */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error("pick from an empty array");
    return item;
  }

  /** A string of `length` characters from `alphabet`. */
  string(length: number, alphabet = ALPHANUMERIC): string {
    let out = "";
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(this.next() * alphabet.length)] ?? "a";
    return out;
  }
}

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** The URL-safe base64 alphabet, for ids shaped like room version 4+ event ids. */
export const BASE64URL = `${ALPHANUMERIC}-_`;
