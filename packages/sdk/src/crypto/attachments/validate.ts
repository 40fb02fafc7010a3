/**
 * Validation of the untrusted EncryptedFile JSON that arrives in room events.
 * One pass checks every field against the spec's definition and decodes the
 * key, IV and hash to bytes, so the cipher code only ever sees well-formed
 * values and a hostile event yields an AttachmentError, never a crash.
 *
 * Versions: the spec requires `v: "v2"` (a 64-bit counter starting at zero
 * under a random 64-bit nonce). Older files exist: "v1" (64-bit counter, the
 * whole 128-bit block random) and v0 (no `v`, a 128-bit counter). They are
 * refused by default, because the spec does not define them, and accepted
 * only when the caller opts in with `allowLegacyVersions` (to show old
 * history). A hash of the ciphertext is required for every version: nothing
 * is decrypted unverified.
 */
import { parseMxc } from "../../api/media";
import { decodeBase64 } from "./base64";
import { AttachmentError } from "./errors";
import type { EncryptedFile } from "./wire-types";

/** Options of attachment decoding. */
export interface AttachmentDecodeOptions {
  /** Accept the pre-spec protocol versions v1 and v0 (no `v`). Default false. */
  allowLegacyVersions?: boolean;
}

/** An EncryptedFile decoded to bytes. */
export interface DecodedFileInfo {
  /** The 32-byte AES key. */
  key: Uint8Array<ArrayBuffer>;
  /** The 16-byte initial counter block. */
  iv: Uint8Array<ArrayBuffer>;
  /** The expected SHA-256 of the ciphertext (32 bytes). */
  sha256: Uint8Array<ArrayBuffer>;
  /** How many low bits of the counter block count: 64 (v1, v2) or 128 (v0). */
  counterBits: 64 | 128;
  /** The protocol version as sent ("v0" when absent). */
  version: "v0" | "v1" | "v2";
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// Own properties only: "__proto__" or "constructor" in hostile JSON are data.
function own(obj: JsonObject, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined;
}

function malformed(detail: string): AttachmentError {
  return new AttachmentError("malformed_file", `Malformed encrypted file: ${detail}`);
}

function decodeField(
  value: unknown,
  field: string,
  alphabet: "standard" | "either",
  length: number,
): Uint8Array<ArrayBuffer> {
  if (typeof value !== "string") throw malformed(`${field} must be a string`);
  // Bound the work before decoding: a few padding characters at most.
  const decoded = value.length <= Math.ceil(length / 3) * 4 ? decodeBase64(value, alphabet) : null;
  if (decoded?.length !== length) {
    throw malformed(`${field} must be ${length} bytes of base64`);
  }
  return new Uint8Array(decoded);
}

function checkKey(key: unknown): Uint8Array<ArrayBuffer> {
  if (!isObject(key)) throw malformed("key must be an object");
  if (own(key, "kty") !== "oct") throw malformed('key.kty must be "oct"');
  if (own(key, "alg") !== "A256CTR") throw malformed('key.alg must be "A256CTR"');
  if (own(key, "ext") !== true) throw malformed("key.ext must be true");
  const ops = own(key, "key_ops");
  if (!Array.isArray(ops) || !ops.every((op) => typeof op === "string")) {
    throw malformed("key.key_ops must be an array of strings");
  }
  if (!ops.includes("encrypt") || !ops.includes("decrypt")) {
    throw malformed('key.key_ops must contain "encrypt" and "decrypt"');
  }
  // JWK requires URL-safe base64 for k; the standard alphabet is tolerated
  // because a 32-byte key has no other reading and some senders use it.
  return decodeField(own(key, "k"), "key.k", "either", 32);
}

function checkVersion(value: unknown, options: AttachmentDecodeOptions): DecodedFileInfo["version"] {
  if (value === "v2") return "v2";
  const legacy = value === undefined ? "v0" : value === "v1" ? "v1" : null;
  if (legacy === null) {
    const shown = typeof value === "string" ? value.slice(0, 20) : typeof value;
    throw new AttachmentError("unsupported_version", `Unsupported encrypted file version: ${shown}`);
  }
  if (options.allowLegacyVersions !== true) {
    throw new AttachmentError(
      "unsupported_version",
      `Unsupported encrypted file version: ${legacy} (only v2 is accepted)`,
    );
  }
  return legacy;
}

/**
 * Checks the key, IV, hashes and version of an EncryptedFile (with or
 * without `url`) and decodes them. Throws AttachmentError: malformed_file or
 * unsupported_version.
 */
export function decodeFileInfo(file: unknown, options: AttachmentDecodeOptions = {}): DecodedFileInfo {
  if (!isObject(file)) throw malformed("not an object");
  const key = checkKey(own(file, "key"));
  const iv = decodeField(own(file, "iv"), "iv", "standard", 16);
  const hashes = own(file, "hashes");
  if (!isObject(hashes)) throw malformed("hashes must be an object");
  const sha256 = decodeField(own(hashes, "sha256"), "hashes.sha256", "standard", 32);
  const version = checkVersion(own(file, "v"), options);
  return { key, iv, sha256, counterBits: version === "v0" ? 128 : 64, version };
}

/**
 * Validates untrusted JSON as a complete EncryptedFile (a valid mxc `url`
 * included) and returns it typed. Throws AttachmentError on any deviation.
 */
export function validateEncryptedFile(value: unknown, options: AttachmentDecodeOptions = {}): EncryptedFile {
  decodeFileInfo(value, options);
  const url = isObject(value) ? own(value, "url") : undefined;
  if (typeof url !== "string") throw malformed("url must be a string");
  try {
    parseMxc(url);
  } catch (error) {
    throw new AttachmentError("malformed_file", "Malformed encrypted file: url is not an mxc URI", {
      cause: error,
    });
  }
  return value as EncryptedFile;
}
