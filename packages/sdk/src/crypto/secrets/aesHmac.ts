/**
 * The secret storage algorithm m.secret_storage.v1.aes-hmac-sha2 of the
 * client-server spec ("Secret Storage"), on Web Crypto only:
 * HKDF-SHA-256 over the 32-byte storage key (salt: 32 zero bytes, info: the
 * secret's name) gives an AES-CTR-256 key and an HMAC-SHA-256 key; a random
 * 16-byte IV with bit 63 cleared starts the counter; the MAC covers the raw
 * ciphertext. The key check of a key description is the same encryption of
 * 32 zero bytes under the empty name. Passphrases become keys by
 * PBKDF2-SHA-512 (m.pbkdf2). Base64 is written unpadded and read either way.
 */
import { base64ToBytes, bytesToBase64 } from "../recovery-key";
import { SecretStorageError } from "./errors";
import { cryptoBytes, randomString as randomAlphanumeric } from "../../util/random";
import type { RandomBytes } from "../../util/random";

/** The algorithm name in key descriptions. */
export const AES_HMAC_SHA2 = "m.secret_storage.v1.aes-hmac-sha2";

/** One secret encrypted with one key: the spec's `{ iv, ciphertext, mac }`. */
export interface AesHmacPayload {
  iv: string;
  ciphertext: string;
  mac: string;
}

/** The random source; defaults to crypto.getRandomValues. */
export type { RandomBytes };

// The SDK core has no DOM lib; take Web Crypto's types from the global itself.
type Subtle = typeof globalThis.crypto.subtle;
type Key = Awaited<ReturnType<Subtle["importKey"]>>;

function subtle(): Subtle {
  const api: unknown = (globalThis as { crypto?: { subtle?: unknown } }).crypto?.subtle;
  if (api === undefined || api === null) {
    throw new SecretStorageError("crypto_failure", "Web Crypto is not available in this environment");
  }
  return api as Subtle;
}

const defaultRandom: RandomBytes = cryptoBytes;

const ZERO_SALT = new Uint8Array(32);
const encoder = new TextEncoder();

function own(data: Uint8Array): Uint8Array<ArrayBuffer> {
  return data.buffer instanceof ArrayBuffer ? (data as Uint8Array<ArrayBuffer>) : new Uint8Array(data);
}

function decode(field: string, text: string): Uint8Array<ArrayBuffer> {
  try {
    return own(base64ToBytes(text));
  } catch (error) {
    throw new SecretStorageError("bad_format", `The ${field} is not base64`, { cause: error });
  }
}

/** Derives the AES and HMAC keys for one secret name. */
async function deriveKeys(key: Uint8Array, name: string): Promise<{ aes: Key; hmac: Key }> {
  if (key.length !== 32) throw new SecretStorageError("bad_format", "A secret storage key has 32 bytes");
  const api = subtle();
  const base = await api.importKey("raw", own(key), { name: "HKDF" }, false, ["deriveBits"]);
  const bits = new Uint8Array(
    await api.deriveBits(
      { name: "HKDF", hash: "SHA-256", salt: ZERO_SALT, info: encoder.encode(name) },
      base,
      512,
    ),
  );
  const aes = await api.importKey("raw", bits.slice(0, 32), { name: "AES-CTR" }, false, [
    "encrypt",
    "decrypt",
  ]);
  const hmac = await api.importKey("raw", bits.slice(32), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify",
  ]);
  return { aes, hmac };
}

/** Encrypts `plaintext` under `key` for the secret called `name`. */
export async function encryptAesHmac(
  key: Uint8Array,
  name: string,
  plaintext: string,
  options: { iv?: string; random?: RandomBytes } = {},
): Promise<AesHmacPayload> {
  const { aes, hmac } = await deriveKeys(key, name);
  let iv: Uint8Array<ArrayBuffer>;
  if (options.iv !== undefined) {
    iv = decode("iv", options.iv);
  } else {
    iv = new Uint8Array(16);
    (options.random ?? defaultRandom)(iv);
    // Bit 63 clear: the 64-bit counter half cannot wrap, whichever way an implementation counts.
    iv[8] = (iv[8] ?? 0) & 0x7f;
  }
  const api = subtle();
  const data = encoder.encode(plaintext);
  const ciphertext = new Uint8Array(
    await api.encrypt({ name: "AES-CTR", counter: iv, length: 64 }, aes, data),
  );
  const mac = new Uint8Array(await api.sign("HMAC", hmac, ciphertext));
  return { iv: bytesToBase64(iv), ciphertext: bytesToBase64(ciphertext), mac: bytesToBase64(mac) };
}

/**
 * Decrypts a payload; throws SecretStorageError "wrong_key" when the MAC
 * does not match (wrong key, wrong name or tampered data).
 */
export async function decryptAesHmac(
  key: Uint8Array,
  name: string,
  payload: AesHmacPayload,
): Promise<string> {
  const { aes, hmac } = await deriveKeys(key, name);
  const iv = decode("iv", payload.iv);
  const ciphertext = decode("ciphertext", payload.ciphertext);
  const mac = decode("mac", payload.mac);
  const api = subtle();
  if (!(await api.verify("HMAC", hmac, mac, ciphertext))) {
    throw new SecretStorageError("wrong_key", `The key does not decrypt the secret ${name || "key check"}`);
  }
  const plain = await api.decrypt({ name: "AES-CTR", counter: iv, length: 64 }, aes, ciphertext);
  return new TextDecoder().decode(plain);
}

/** The key check of a key description: 32 zero bytes encrypted under the empty name. */
export async function calculateKeyCheck(
  key: Uint8Array,
  options: { iv?: string; random?: RandomBytes } = {},
): Promise<{ iv: string; mac: string }> {
  const { iv, mac } = await encryptAesHmac(key, "", "\0".repeat(32), options);
  return { iv, mac };
}

/** Whether `key` matches a key description's `iv` and `mac`. */
export async function checkKey(key: Uint8Array, check: { iv: string; mac: string }): Promise<boolean> {
  if (key.length !== 32) return false;
  const { mac } = await calculateKeyCheck(key, { iv: check.iv });
  const trim = (s: string): string => s.replace(/=+$/, "");
  // Not secret-dependent timing: both MACs are public in account data.
  return trim(mac) === trim(check.mac);
}

/** The spec's m.pbkdf2 passphrase parameters. */
export interface Pbkdf2Params {
  algorithm: "m.pbkdf2";
  salt: string;
  iterations: number;
  /** Key length in bits; 256 when absent. */
  bits?: number;
}

/** Turns a passphrase into a storage key with PBKDF2-SHA-512. */
export async function deriveKeyFromPassphrase(passphrase: string, params: Pbkdf2Params): Promise<Uint8Array> {
  if (params.algorithm !== "m.pbkdf2") {
    throw new SecretStorageError(
      "unsupported_algorithm",
      `Unknown passphrase algorithm ${String(params.algorithm)}`,
    );
  }
  const api = subtle();
  const base = await api.importKey("raw", encoder.encode(passphrase), { name: "PBKDF2" }, false, [
    "deriveBits",
  ]);
  const bits = await api.deriveBits(
    { name: "PBKDF2", hash: "SHA-512", salt: encoder.encode(params.salt), iterations: params.iterations },
    base,
    params.bits ?? 256,
  );
  return new Uint8Array(bits);
}

/** A random alphanumeric string (key ids, salts), from util/random. */
export function randomString(length: number, random: RandomBytes = defaultRandom): string {
  return randomAlphanumeric(length, { bytes: random });
}
