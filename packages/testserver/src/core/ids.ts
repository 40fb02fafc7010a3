/**
 * Identifiers and secrets of the test homeserver. With a seed every id and
 * token is deterministic, so tests and the demo are reproducible.
 */
import { randomBytes } from "node:crypto";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

export class IdGenerator {
  private state: number;
  private counter = 0;

  constructor(seed?: number | string) {
    this.state = seed === undefined ? randomBytes(4).readUInt32LE(0) : hashSeed(seed);
  }

  /** A pseudo-random 32-bit integer (mulberry32). */
  private nextInt(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** A random string over [A-Za-z0-9]. */
  randomString(length: number): string {
    let out = "";
    for (let i = 0; i < length; i++) out += ALPHABET[this.nextInt() % ALPHABET.length];
    return out;
  }

  /** A strictly increasing number, unique within this server. */
  sequence(): number {
    return ++this.counter;
  }

  eventId(): string {
    return `$${this.randomString(43)}`;
  }

  roomId(serverName: string): string {
    return `!${this.randomString(18)}:${serverName}`;
  }

  token(prefix: string): string {
    return `${prefix}_${this.randomString(32)}`;
  }

  deviceId(): string {
    return this.randomString(10).toUpperCase();
  }
}

function hashSeed(seed: number | string): number {
  const text = String(seed);
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}
