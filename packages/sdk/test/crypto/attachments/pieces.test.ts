/**
 * Attachments in pieces: chunked AES-CTR is byte-identical to one-shot
 * encryption (at every piece boundary, across a 64-bit counter wrap and
 * with 128-bit legacy counters), both SHA-256 engines agree with Node's
 * own hash, and a file bigger than one piece round trips through the test
 * homeserver streamed and as a Blob, while a tampered or truncated
 * ciphertext is refused with the hash-mismatch message and no plaintext.
 */
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { registerUser } from "@lattice/testserver/test/helpers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { downloadContent, uploadContent } from "../../../src/api/media";
import { decryptAttachment } from "../../../src/crypto/attachments/cipher";
import { PIECE_BYTES, counterAt, ctrPiece } from "../../../src/crypto/attachments/ctr";
import { AttachmentError } from "../../../src/crypto/attachments/errors";
import { createSha256, sha256Engine } from "../../../src/crypto/attachments/sha256";
import type { Sha256Engine } from "../../../src/crypto/attachments/sha256";
import {
  downloadEncryptedAttachment,
  uploadEncryptedAttachment,
} from "../../../src/crypto/attachments/transfer";
import { createHttpClient } from "../../../src/http/client";
import type { HttpClient } from "../../../src/http/client";
import type { UploadProgress } from "../../../src/http/types";
import { b64, bytesEqual, hex, nodeCtr, nodeSha256, pattern } from "./helpers";

const HASH_MISMATCH = "Encrypted file hash mismatch: the downloaded data is not the file that was sent";

async function importCtrKey(raw: Uint8Array<ArrayBuffer>): ReturnType<typeof crypto.subtle.importKey> {
  return crypto.subtle.importKey("raw", raw, { name: "AES-CTR" }, false, ["encrypt", "decrypt"]);
}

/** Encrypts `data` piece by piece of `size` bytes and joins the pieces. */
async function inPieces(
  key: Awaited<ReturnType<typeof crypto.subtle.importKey>>,
  iv: Uint8Array,
  bits: 64 | 128,
  data: Uint8Array,
  size: number,
): Promise<Uint8Array> {
  const out = new Uint8Array(data.byteLength);
  for (let at = 0; at < data.byteLength; at += size) {
    out.set(await ctrPiece(key, iv, bits, at, data.subarray(at, at + size), "encrypt"), at);
  }
  return out;
}

describe("AES-CTR in pieces", () => {
  it("advances only the counter bits, with the carry, modulo 2^bits", () => {
    const iv = hex("0102030405060708 00000000000000ff");
    expect(b64(counterAt(iv, 1, 64))).toBe(b64(hex("0102030405060708 0000000000000100")));
    expect(b64(counterAt(iv, 0x1_0000_0000, 64))).toBe(b64(hex("0102030405060708 00000001000000ff")));
    // The low half wraps to zero and leaves the nonce alone, as Web Crypto counts with length 64.
    const top = hex("0102030405060708 ffffffffffffffff");
    expect(b64(counterAt(top, 1, 64))).toBe(b64(hex("0102030405060708 0000000000000000")));
    expect(b64(counterAt(top, 1, 128))).toBe(b64(hex("0102030405060709 0000000000000000")));
  });

  it("is byte-identical to one-shot encryption for every size around the piece boundaries", async () => {
    const rawKey = new Uint8Array(32).fill(7);
    const key = await importCtrKey(rawKey);
    const iv = hex("a1b2c3d4e5f60718 0000000000000000");
    for (const length of [
      0,
      1,
      15,
      16,
      17,
      PIECE_BYTES - 1,
      PIECE_BYTES,
      PIECE_BYTES + 1,
      2 * PIECE_BYTES + 37,
    ]) {
      const data = pattern(length, length + 1);
      const whole = new Uint8Array(
        await crypto.subtle.encrypt({ name: "AES-CTR", counter: iv, length: 64 }, key, data),
      );
      const chunked = await inPieces(key, iv, 64, data, PIECE_BYTES);
      expect(bytesEqual(chunked, whole), `length ${length}`).toBe(true);
      // And what an independent implementation computes.
      expect(bytesEqual(chunked, nodeCtr(rawKey, iv, data)), `length ${length} vs node`).toBe(true);
    }
  });

  it("agrees with one-shot encryption when the counter wraps inside the file, 64 and 128 bits", async () => {
    const key = await importCtrKey(new Uint8Array(32).fill(9));
    const data = pattern(16 * 40 + 5, 3);
    for (const [bits, iv] of [
      [64, hex("0011223344556677 ffffffffffffffec")],
      [128, hex("ffffffffffffffff ffffffffffffffec")],
    ] as const) {
      const whole = new Uint8Array(
        await crypto.subtle.encrypt({ name: "AES-CTR", counter: iv, length: bits }, key, data),
      );
      // Pieces of 3 blocks: several of them straddle the wrap.
      expect(bytesEqual(await inPieces(key, iv, bits, data, 48), whole), `${bits} bits`).toBe(true);
    }
  });
});

describe("incremental SHA-256", () => {
  it("in Node the native engine is found, and both engines give Node's digest over any split", async () => {
    expect(sha256Engine()).toBe("native");
    const data = pattern(3 * 65_536 + 11, 5);
    for (const engine of ["native", "webcrypto"] as const) {
      for (const split of [1, 1000, 65_536, data.byteLength]) {
        const hash = createSha256(engine);
        for (let at = 0; at < data.byteLength; at += split) hash.update(data.subarray(at, at + split));
        expect(b64(await hash.digest()), `${engine} / ${split}`).toBe(b64(nodeSha256(data)));
      }
    }
  });
});

describe("a file bigger than one piece through the test homeserver", () => {
  let server: TestServerHandle;
  let http: HttpClient;
  const data = pattern(2 * PIECE_BYTES + 12_345, 11);

  beforeAll(async () => {
    server = await startTestServer({ seed: 17 });
    const user = await registerUser(server, "pieces");
    http = createHttpClient({ baseUrl: server.url, accessToken: user.accessToken, retry: false });
  });
  afterAll(async () => {
    await server.stop();
  });

  const ways: { body: string; streamBody: boolean; hashEngine: Sha256Engine }[] = [
    { body: "streamed", streamBody: true, hashEngine: "native" },
    { body: "a Blob of the pieces", streamBody: false, hashEngine: "webcrypto" },
  ];
  for (const { body, streamBody, hashEngine } of ways) {
    it(`round trips byte-identical, uploaded as ${body}, hashed by ${hashEngine}`, async () => {
      const progress: UploadProgress[] = [];
      const file = await uploadEncryptedAttachment(http, data, {
        streamBody,
        hashEngine,
        onUploadProgress: (p) => progress.push(p),
      });
      expect(progress.at(-1)).toEqual({ loaded: data.byteLength, total: data.byteLength });
      // The server holds ciphertext of the file's length whose hash the event names.
      const stored = await downloadContent(http, file.url);
      expect(stored.data.byteLength).toBe(data.byteLength);
      expect(b64(nodeSha256(stored.data))).toBe(file.hashes.sha256);
      // One-shot decryption reads it (what another client does with the file).
      expect(bytesEqual(await decryptAttachment(stored.data, file), data)).toBe(true);
      const back = await downloadEncryptedAttachment(http, JSON.parse(JSON.stringify(file)), { hashEngine });
      expect(bytesEqual(back, data)).toBe(true);
    });
  }

  it("round trips when the server sends no Content-Length (chunked body)", async () => {
    const file = await uploadEncryptedAttachment(http, data);
    const unsized = createHttpClient({
      baseUrl: server.url,
      accessToken: http.getAccessToken(),
      retry: false,
      fetch: async (input, init) => {
        const res = await globalThis.fetch(input, init);
        const headers = new Headers(res.headers);
        headers.delete("content-length");
        return new Response(res.body, { status: res.status, headers });
      },
    });
    expect(bytesEqual(await downloadEncryptedAttachment(unsized, file), data)).toBe(true);
  });

  for (const hashEngine of ["native", "webcrypto"] as const) {
    it(`a tampered or truncated ciphertext is refused with the hash-mismatch message (${hashEngine})`, async () => {
      const file = await uploadEncryptedAttachment(http, data);
      const stored = (await downloadContent(http, file.url)).data;
      const flipped = new Uint8Array(stored);
      // A bit in the last piece: everything before it would decrypt fine.
      flipped[flipped.length - 3] = (flipped[flipped.length - 3] ?? 0) ^ 1;
      const truncated = stored.slice(0, PIECE_BYTES);
      for (const bad of [flipped, truncated]) {
        const { content_uri } = await uploadContent(http, bad, { contentType: "application/octet-stream" });
        const result = downloadEncryptedAttachment(http, { ...file, url: content_uri }, { hashEngine });
        await expect(result).rejects.toBeInstanceOf(AttachmentError);
        await expect(result).rejects.toMatchObject({ code: "hash_mismatch", message: HASH_MISMATCH });
      }
    });
  }
});
