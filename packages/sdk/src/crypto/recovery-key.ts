/**
 * The recovery key format of the Matrix spec (client-server "Recovery key"):
 * the 32-byte private key behind the prefix 0x8B 0x01, then a parity byte
 * (XOR of every byte before it), base58-encoded with the Bitcoin alphabet
 * and shown in groups of four characters. Decoding ignores whitespace and
 * checks prefix, length and parity.
 */

const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const PREFIX = [0x8b, 0x01] as const;
const KEY_LENGTH = 32;

/** A recovery key that is not one: wrong characters, prefix, length or parity. */
export class RecoveryKeyError extends Error {
  override readonly name = "RecoveryKeyError";
}

function base58Encode(bytes: Uint8Array): string {
  let value = 0n;
  for (const b of bytes) value = value * 256n + BigInt(b);
  let out = "";
  while (value > 0n) {
    out = ALPHABET.charAt(Number(value % 58n)) + out;
    value /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = "1" + out;
  }
  return out;
}

function base58Decode(text: string): Uint8Array {
  let value = 0n;
  for (const ch of text) {
    const digit = ALPHABET.indexOf(ch);
    if (digit < 0) throw new RecoveryKeyError("The recovery key has a character outside base58");
    value = value * 58n + BigInt(digit);
  }
  const bytes: number[] = [];
  while (value > 0n) {
    bytes.unshift(Number(value % 256n));
    value /= 256n;
  }
  for (const ch of text) {
    if (ch !== "1") break;
    bytes.unshift(0);
  }
  return Uint8Array.from(bytes);
}

/** Encodes a 32-byte private key as a recovery key ("EsTc LW2K ..."). */
export function encodeRecoveryKey(key: Uint8Array): string {
  if (key.length !== KEY_LENGTH) throw new RecoveryKeyError("A recovery key holds a 32-byte key");
  const buf = new Uint8Array(PREFIX.length + KEY_LENGTH + 1);
  buf.set(PREFIX, 0);
  buf.set(key, PREFIX.length);
  let parity = 0;
  for (let i = 0; i < buf.length - 1; i += 1) parity ^= buf[i] ?? 0;
  buf[buf.length - 1] = parity;
  return (base58Encode(buf).match(/.{1,4}/g) ?? []).join(" ");
}

/** Decodes a recovery key back to its 32-byte private key. */
export function decodeRecoveryKey(recoveryKey: string): Uint8Array {
  const bytes = base58Decode(recoveryKey.replace(/\s+/g, ""));
  if (bytes.length !== PREFIX.length + KEY_LENGTH + 1)
    throw new RecoveryKeyError("The recovery key has the wrong length");
  if (bytes[0] !== PREFIX[0] || bytes[1] !== PREFIX[1])
    throw new RecoveryKeyError("The recovery key has the wrong prefix");
  let parity = 0;
  for (const b of bytes) parity ^= b;
  if (parity !== 0) throw new RecoveryKeyError("The recovery key has a wrong parity byte (a typo?)");
  return bytes.slice(PREFIX.length, PREFIX.length + KEY_LENGTH);
}

/** Standard base64 (padding optional) to bytes, with the platform's atob. */
export function base64ToBytes(text: string): Uint8Array {
  const padded = text + "=".repeat((4 - (text.length % 4)) % 4);
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

/** Bytes to unpadded standard base64, as Matrix writes keys. */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/=+$/, "");
}
