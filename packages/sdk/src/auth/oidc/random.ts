/**
 * Random strings for OIDC sign-in: state (8 characters), nonce (8), PKCE
 * code verifier (64) and device id (10), SPEC.md §9. The source is injected
 * so tests are deterministic; the default draws from Web Crypto (util/random).
 */
import { ALPHANUMERIC, randomString } from "../../util/random";
import type { RandomSource } from "../../util/random";

export { cryptoRandom } from "../../util/random";
export type { RandomFn } from "../../util/random";

/** SPEC §9: lengths of the sign-in randoms. */
export const STATE_LENGTH = 8;
export const NONCE_LENGTH = 8;
export const CODE_VERIFIER_LENGTH = 64;
/** SPEC §7: the device id in the login scope is 10 random characters. */
export const DEVICE_ID_LENGTH = 10;

/** RFC 7636 §4.1: a code verifier uses the unreserved characters. */
const UNRESERVED = `${ALPHANUMERIC}-._~`;

/** A random string of `length` characters from [A-Za-z0-9]. */
export function randomAlphanumeric(length: number, random?: RandomSource): string {
  return randomString(length, random);
}

/** A PKCE code verifier of 64 unreserved characters (RFC 7636 allows 43 to 128). */
export function randomCodeVerifier(random?: RandomSource): string {
  return randomString(CODE_VERIFIER_LENGTH, random, UNRESERVED);
}
