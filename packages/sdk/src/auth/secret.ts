/**
 * Client secrets for 3PID validation (SPEC §9: 32 characters). The random
 * source is injected so tests are deterministic; the default draws from Web
 * Crypto (util/random).
 */
import { randomString } from "../util/random";
import type { RandomFn } from "../util/random";

export { randomString } from "../util/random";
export type { RandomFn } from "../util/random";

/** SPEC §9: the client secret of a 3PID validation is 32 characters. */
export const CLIENT_SECRET_LENGTH = 32;

/** A fresh client_secret for a 3PID validation session. */
export function generateClientSecret(random?: RandomFn): string {
  return randomString(CLIENT_SECRET_LENGTH, random);
}
