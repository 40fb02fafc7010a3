/**
 * Random strings for auth: validation client secrets (SPEC §9: 32
 * characters) and similar nonces. The random source is injected so tests are
 * deterministic; the default draws from Web Crypto.
 */

/** A source of random numbers in [0, 1). */
export type RandomFn = () => number;

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** SPEC §9: the client secret of a 3PID validation is 32 characters. */
export const CLIENT_SECRET_LENGTH = 32;

/** A uniformly distributed value in [0, 1) from Web Crypto. */
export const cryptoRandom: RandomFn = () => {
  const buf = new Uint32Array(1);
  globalThis.crypto.getRandomValues(buf);
  return (buf[0] ?? 0) / 2 ** 32;
};

/** A random string of `length` characters from [A-Za-z0-9] (valid as a client_secret). */
export function randomString(length: number, random: RandomFn = cryptoRandom): string {
  let out = "";
  for (let i = 0; i < length; i++) {
    out += ALPHABET.charAt(Math.floor(random() * ALPHABET.length) % ALPHABET.length);
  }
  return out;
}

/** A fresh client_secret for a 3PID validation session. */
export function generateClientSecret(random?: RandomFn): string {
  return randomString(CLIENT_SECRET_LENGTH, random);
}
