/**
 * Random strings, in one place: ids, secrets, salts and sign-in randoms all
 * draw from here. The default source is Web Crypto bytes with rejection
 * sampling, so every character of the alphabet is equally likely; callers
 * that run on injected time (calls, tests) pass their own source.
 */

/** A source of uniformly distributed numbers in [0, 1). */
export type RandomFn = () => number;

/** Fills the array with random bytes (crypto.getRandomValues' shape). */
export type RandomBytes = (target: Uint8Array<ArrayBuffer>) => void;

/** Either kind of random source. */
export type RandomSource = RandomFn | { readonly bytes: RandomBytes };

/** [A-Za-z0-9]: ids, client secrets, OIDC state and nonce. */
export const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** Web Crypto bytes. */
export const cryptoBytes: RandomBytes = (target) => {
  globalThis.crypto.getRandomValues(target);
};

/** A uniformly distributed value in [0, 1) from Web Crypto (53 random bits). */
export const cryptoRandom: RandomFn = () => {
  const buf = new Uint32Array(2);
  globalThis.crypto.getRandomValues(buf);
  // 32 bits from the first word and 21 from the second: the mantissa of a double.
  return ((buf[0] ?? 0) * 2 ** 21 + ((buf[1] ?? 0) >>> 11)) / 2 ** 53;
};

/**
 * A string of `length` characters of `alphabet` (at most 256 characters).
 * With bytes (the default), a byte at or above the largest multiple of the
 * alphabet's size is drawn again, so the modulo does not favour the first
 * characters. With a number source, floor(random() * size) is uniform as long
 * as the source is.
 */
export function randomString(
  length: number,
  source: RandomSource = { bytes: cryptoBytes },
  alphabet: string = ALPHANUMERIC,
): string {
  const size = alphabet.length;
  if (size === 0 || size > 256) throw new RangeError(`alphabet of ${size} characters`);
  let out = "";
  if (typeof source === "function") {
    for (let i = 0; i < length; i++) out += alphabet.charAt(Math.min(size - 1, Math.floor(source() * size)));
    return out;
  }
  const limit = 256 - (256 % size);
  const buf = new Uint8Array(Math.max(16, length));
  while (out.length < length) {
    source.bytes(buf);
    for (const b of buf) {
      if (b < limit) out += alphabet.charAt(b % size);
      if (out.length === length) break;
    }
  }
  return out;
}
