/**
 * AES-256-CTR encryption of attachments in the Matrix file format, on Web
 * Crypto (globalThis.crypto.subtle: Node 20 and browsers, no dependency).
 *
 * Encryption draws a fresh 256-bit key and a random 64-bit nonce per file;
 * the low 64 bits of the counter block start at zero (protocol v2), so a
 * file would need 2^68 bytes to wrap. Decryption checks the SHA-256 of the
 * ciphertext before anything is decrypted: CTR has no integrity of its own,
 * and the hash (carried inside the Megolm-encrypted event) is what stops the
 * homeserver from altering the file.
 */
import { encodeBase64 } from "./base64";
import { AttachmentError } from "./errors";
import type { AttachmentDecodeOptions } from "./validate";
import { decodeFileInfo } from "./validate";
import type { EncryptedFileInfo } from "./wire-types";

/** Fills a buffer with cryptographically secure random bytes. */
export type RandomBytes = (target: Uint8Array<ArrayBuffer>) => void;

/** Options of `encryptAttachment`. */
export interface EncryptAttachmentOptions {
  /** The random source for key and nonce; defaults to crypto.getRandomValues. Tests inject one. */
  randomBytes?: RandomBytes;
}

/** The result of `encryptAttachment`: the bytes to upload and the file info for the event. */
export interface EncryptedAttachment {
  /** The ciphertext, as long as the plaintext. */
  data: Uint8Array<ArrayBuffer>;
  /** Key, IV, hash and version; the caller adds `url` after upload. */
  file: EncryptedFileInfo;
}

const TWO_POW_64 = 1n << 64n;

// The SDK core has no DOM lib; take Web Crypto's types from the global itself.
type Subtle = typeof globalThis.crypto.subtle;
/** A Web Crypto key. */
export type Key = Awaited<ReturnType<Subtle["importKey"]>>;

/** Web Crypto's subtle API; AttachmentError (crypto_failure) where there is none. */
export function subtle(): Subtle {
  const api: unknown = (globalThis as { crypto?: { subtle?: unknown } }).crypto?.subtle;
  if (api === undefined || api === null) {
    throw new AttachmentError("crypto_failure", "Web Crypto is not available in this environment");
  }
  return api as Subtle;
}

function defaultRandomBytes(target: Uint8Array<ArrayBuffer>): void {
  globalThis.crypto.getRandomValues(target);
}

/** Web Crypto wants ArrayBuffer-backed views; copies only when handed a shared buffer. */
export function ownBuffer(data: Uint8Array): Uint8Array<ArrayBuffer> {
  return data.buffer instanceof ArrayBuffer ? (data as Uint8Array<ArrayBuffer>) : new Uint8Array(data);
}

/** Runs a Web Crypto step; its failures become AttachmentError (crypto_failure). */
export async function webCrypto<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof AttachmentError) throw error;
    throw new AttachmentError("crypto_failure", `Attachment ${what} failed`, { cause: error });
  }
}

/** Imports a raw AES-CTR key for one use. */
export function importKey(raw: Uint8Array<ArrayBuffer>, usage: "encrypt" | "decrypt"): Promise<Key> {
  return subtle().importKey("raw", raw, { name: "AES-CTR" }, false, [usage]);
}

/**
 * Encrypts an attachment: returns the ciphertext and the EncryptedFile info
 * (without `url`). Each call uses a fresh key and nonce, so an image and its
 * thumbnail never share a counter stream. Throws AttachmentError
 * (crypto_failure) if Web Crypto is missing or fails.
 */
export async function encryptAttachment(
  data: Uint8Array,
  options: EncryptAttachmentOptions = {},
): Promise<EncryptedAttachment> {
  const { key, iv } = newKeyMaterial(options.randomBytes);
  return webCrypto("encryption", async () => {
    const cryptoKey = await importKey(key, "encrypt");
    const params = { name: "AES-CTR", counter: iv, length: 64 };
    const ciphertext = new Uint8Array(await subtle().encrypt(params, cryptoKey, ownBuffer(data)));
    const digest = new Uint8Array(await subtle().digest("SHA-256", ciphertext));
    const file = fileInfo(key, iv, digest);
    key.fill(0);
    return { data: ciphertext, file };
  });
}

/** A fresh 256-bit key and a v2 counter block: a random 64-bit nonce, the low half (the counter) zero. */
export function newKeyMaterial(randomBytes: RandomBytes = defaultRandomBytes): {
  key: Uint8Array<ArrayBuffer>;
  iv: Uint8Array<ArrayBuffer>;
} {
  const key = new Uint8Array(32);
  randomBytes(key);
  const iv = new Uint8Array(16);
  randomBytes(iv.subarray(0, 8));
  return { key, iv };
}

/** The v2 EncryptedFile info (without `url`) for a key, counter block and ciphertext digest. */
export function fileInfo(key: Uint8Array, iv: Uint8Array, digest: Uint8Array): EncryptedFileInfo {
  return {
    v: "v2",
    key: {
      kty: "oct",
      key_ops: ["encrypt", "decrypt"],
      alg: "A256CTR",
      k: encodeBase64(key, "urlsafe"),
      ext: true,
    },
    iv: encodeBase64(iv),
    hashes: { sha256: encodeBase64(digest) },
  };
}

/** Compares two digests in constant time. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

/** The low 64 bits of a counter block. */
function lowCounter(iv: Uint8Array): bigint {
  let value = 0n;
  for (let i = 8; i < 16; i++) value = (value << 8n) | BigInt(iv[i] ?? 0);
  return value;
}

/** Throws AttachmentError (hash_mismatch) unless the ciphertext's digest is the expected one. */
export function checkDigest(digest: Uint8Array, expected: Uint8Array): void {
  if (!sameBytes(digest, expected)) {
    throw new AttachmentError(
      "hash_mismatch",
      "Encrypted file hash mismatch: the downloaded data is not the file that was sent",
    );
  }
}

/** Throws AttachmentError (counter_wrap) when a 64-bit counter would wrap within `length` bytes. */
export function checkCounter(iv: Uint8Array, counterBits: 64 | 128, length: number): void {
  if (counterBits !== 64) return;
  const blocks = BigInt(Math.ceil(length / 16));
  if (lowCounter(iv) + blocks > TWO_POW_64) {
    throw new AttachmentError("counter_wrap", "Encrypted file counter would wrap within the file");
  }
}

/**
 * Decrypts an attachment. `file` is the untrusted EncryptedFile JSON from
 * the event (with or without `url`); it is validated first, then the
 * ciphertext's SHA-256 is compared with `hashes.sha256`, and only then is
 * anything decrypted. Throws AttachmentError: malformed_file,
 * unsupported_version (see validate.ts for the version policy), hash_mismatch,
 * counter_wrap (a 64-bit counter that does not start at zero and would
 * overflow inside this file: implementations disagree on whether the carry
 * reaches the nonce, so the plaintext is ambiguous) or crypto_failure.
 */
export async function decryptAttachment(
  ciphertext: Uint8Array,
  file: unknown,
  options: AttachmentDecodeOptions = {},
): Promise<Uint8Array<ArrayBuffer>> {
  const info = decodeFileInfo(file, options);
  const input = ownBuffer(ciphertext);
  const digest = await webCrypto(
    "hashing",
    async () => new Uint8Array(await subtle().digest("SHA-256", input)),
  );
  checkDigest(digest, info.sha256);
  checkCounter(info.iv, info.counterBits, input.length);
  return webCrypto("decryption", async () => {
    const cryptoKey = await importKey(info.key, "decrypt");
    const params = { name: "AES-CTR", counter: info.iv, length: info.counterBits };
    const plaintext = new Uint8Array(await subtle().decrypt(params, cryptoKey, input));
    info.key.fill(0);
    return plaintext;
  });
}
