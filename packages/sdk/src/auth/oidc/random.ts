/**
 * Random strings for OIDC sign-in: state (8 characters), nonce (8), PKCE
 * code verifier (64) and device id (10), SPEC.md §9. The source is injected
 * so tests are deterministic; the default draws from Web Crypto.
 */

/** A source of random numbers in [0, 1). */
export type RandomFn = () => number;

/** SPEC §9: lengths of the sign-in randoms. */
export const STATE_LENGTH = 8;
export const NONCE_LENGTH = 8;
export const CODE_VERIFIER_LENGTH = 64;
/** SPEC §7: the device id in the login scope is 10 random characters. */
export const DEVICE_ID_LENGTH = 10;

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
/** RFC 7636 §4.1: a code verifier uses the unreserved characters. */
const UNRESERVED = `${ALPHANUMERIC}-._~`;

/** A uniformly distributed value in [0, 1) from Web Crypto. */
export const cryptoRandom: RandomFn = () => {
  const buf = new Uint32Array(1);
  globalThis.crypto.getRandomValues(buf);
  return (buf[0] ?? 0) / 2 ** 32;
};

function pick(alphabet: string, length: number, random: RandomFn): string {
  let out = "";
  for (let i = 0; i < length; i++) {
    out += alphabet.charAt(Math.floor(random() * alphabet.length) % alphabet.length);
  }
  return out;
}

/** A random string of `length` characters from [A-Za-z0-9]. */
export function randomAlphanumeric(length: number, random: RandomFn = cryptoRandom): string {
  return pick(ALPHANUMERIC, length, random);
}

/** A PKCE code verifier of 64 unreserved characters (RFC 7636 allows 43 to 128). */
export function randomCodeVerifier(random: RandomFn = cryptoRandom): string {
  return pick(UNRESERVED, CODE_VERIFIER_LENGTH, random);
}
