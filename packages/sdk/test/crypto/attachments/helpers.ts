/**
 * An independent reference for the attachment tests: AES-256-CTR and
 * SHA-256 from Node's own crypto module (createCipheriv, createHash), which
 * shares no code with the Web Crypto path under test, plus builders for
 * EncryptedFile JSON from raw bytes.
 */
import { createCipheriv, createHash } from "node:crypto";

/** AES-256-CTR with Node's 128-bit big-endian counter; encryption and decryption are the same. */
export function nodeCtr(key: Uint8Array, iv: Uint8Array, data: Uint8Array): Uint8Array {
  const cipher = createCipheriv("aes-256-ctr", key, iv);
  return new Uint8Array(Buffer.concat([cipher.update(data), cipher.final()]));
}

/** SHA-256 with Node's crypto. */
export function nodeSha256(data: Uint8Array): Uint8Array {
  return new Uint8Array(createHash("sha256").update(data).digest());
}

/** Standard unpadded base64 through Buffer (independent of our encoder). */
export function b64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64").replace(/=+$/, "");
}

/** URL-safe unpadded base64 through Buffer. */
export function b64url(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64url");
}

/** Hex to bytes. */
export function hex(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text.replace(/\s+/g, ""), "hex"));
}

/** An EncryptedFile-shaped object (no url) for the given key, IV and ciphertext. */
export function fileFor(
  key: Uint8Array,
  iv: Uint8Array,
  ciphertext: Uint8Array,
  v: string | null = "v2",
): Record<string, unknown> {
  return {
    // null leaves `v` out (protocol v0).
    ...(v === null ? {} : { v }),
    key: { kty: "oct", key_ops: ["encrypt", "decrypt"], alg: "A256CTR", k: b64url(key), ext: true },
    iv: b64(iv),
    hashes: { sha256: b64(nodeSha256(ciphertext)) },
  };
}

/** A deterministic byte pattern of the given length (fast for megabytes). */
export function pattern(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** Byte equality through Buffer.equals: Vitest's deep toEqual is far too slow on megabytes. */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(
    Buffer.from(b.buffer, b.byteOffset, b.byteLength),
  );
}
