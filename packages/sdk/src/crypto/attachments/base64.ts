/**
 * Strict base64 for the EncryptedFile fields. The spec writes iv and hashes
 * as unpadded base64 and the JWK's k as URL-safe unpadded base64, but senders
 * in the wild pad, so the decoder accepts padding when it is exactly right.
 * Everything else (whitespace, stray characters, an impossible length,
 * non-zero trailing bits, two alphabets in one string) is refused, so one
 * value has one encoding and a hostile string never reaches Web Crypto.
 */

/** Which alphabet a value may use. "either" accepts one or the other, never both mixed. */
export type Base64Alphabet = "standard" | "urlsafe" | "either";

const STANDARD = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URLSAFE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

// Character code -> 6-bit value for both alphabets; -1 for anything else.
const VALUES: Int8Array = (() => {
  const table = new Int8Array(128).fill(-1);
  for (let i = 0; i < 64; i++) {
    table[STANDARD.charCodeAt(i)] = i;
    table[URLSAFE.charCodeAt(i)] = i;
  }
  return table;
})();

/**
 * Decodes base64 in the given alphabet, padded or unpadded. Returns null for
 * anything that is not a canonical encoding.
 */
export function decodeBase64(input: string, alphabet: Base64Alphabet): Uint8Array | null {
  let end = input.length;
  while (end > 0 && input.charCodeAt(end - 1) === 0x3d /* = */) end--;
  const padding = input.length - end;
  // Padding, when present, must bring the length to a multiple of four.
  if (padding > 2 || (padding > 0 && input.length % 4 !== 0)) return null;
  if (end % 4 === 1) return null;
  let sawStandard = false;
  let sawUrlsafe = false;
  const out = new Uint8Array(Math.floor((end * 3) / 4));
  let buffer = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < end; i++) {
    const code = input.charCodeAt(i);
    const value = code < 128 ? (VALUES[code] ?? -1) : -1;
    if (value < 0) return null;
    if (code === 0x2b || code === 0x2f) sawStandard = true;
    else if (code === 0x2d || code === 0x5f) sawUrlsafe = true;
    buffer = ((buffer << 6) | value) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (buffer >> bits) & 0xff;
    }
  }
  if (alphabet === "standard" && sawUrlsafe) return null;
  if (alphabet === "urlsafe" && sawStandard) return null;
  if (sawStandard && sawUrlsafe) return null;
  // Leftover bits must be zero, or two strings would decode to the same bytes.
  if (bits > 0 && (buffer & ((1 << bits) - 1)) !== 0) return null;
  return out;
}

/** Encodes bytes as unpadded base64, standard or URL-safe alphabet. */
export function encodeBase64(bytes: Uint8Array, alphabet: "standard" | "urlsafe" = "standard"): string {
  const chars = alphabet === "urlsafe" ? URLSAFE : STANDARD;
  let out = "";
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out +=
      chars.charAt(n >> 18) +
      chars.charAt((n >> 12) & 63) +
      chars.charAt((n >> 6) & 63) +
      chars.charAt(n & 63);
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = (bytes[i] ?? 0) << 16;
    out += chars.charAt(n >> 18) + chars.charAt((n >> 12) & 63);
  } else if (rest === 2) {
    const n = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8);
    out += chars.charAt(n >> 18) + chars.charAt((n >> 12) & 63) + chars.charAt((n >> 6) & 63);
  }
  return out;
}
