/**
 * AES-CTR in pieces, so a large attachment is encrypted or decrypted while
 * it travels instead of in one 50 MB step before or after it.
 *
 * CTR is a keystream: the block at byte offset 16·n is encrypted under the
 * counter block advanced by n. A piece that starts on a 16-byte boundary is
 * therefore encrypted exactly as one-shot encryption would encrypt it, when
 * Web Crypto is handed that advanced counter block (the low `counterBits`
 * bits plus n, modulo 2^counterBits, as Web Crypto counts). The pieces, put
 * together, are byte-identical to the one-shot result (tested).
 */
import type { Key } from "./cipher";
import { ownBuffer, subtle } from "./cipher";

/**
 * The size of a piece: big enough that Web Crypto's per-call cost is small,
 * small enough that the first piece is sent at once and memory stays flat.
 */
export const PIECE_BYTES = 1 << 20;

/** The counter block for the 16-byte block `blocks` after the start of `iv`'s stream. */
export function counterAt(iv: Uint8Array, blocks: number, counterBits: 64 | 128): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(16);
  out.set(iv.subarray(0, 16));
  const low = 16 - counterBits / 8;
  let carry = BigInt(blocks);
  for (let i = 15; i >= low && carry > 0n; i--) {
    const sum = BigInt(out[i] ?? 0) + (carry & 0xffn);
    out[i] = Number(sum & 0xffn);
    carry = (carry >> 8n) + (sum >> 8n);
  }
  return out;
}

/** Encrypts or decrypts (the same operation in CTR) the piece that starts at byte `offset` (a multiple of 16). */
export async function ctrPiece(
  key: Key,
  iv: Uint8Array,
  counterBits: 64 | 128,
  offset: number,
  piece: Uint8Array,
  usage: "encrypt" | "decrypt",
): Promise<Uint8Array<ArrayBuffer>> {
  const params = { name: "AES-CTR", counter: counterAt(iv, offset / 16, counterBits), length: counterBits };
  const input = ownBuffer(piece);
  const out =
    usage === "encrypt"
      ? await subtle().encrypt(params, key, input)
      : await subtle().decrypt(params, key, input);
  return new Uint8Array(out);
}

/**
 * Yields `work(0)`, `work(1)`, … `work(count - 1)` in order, starting up to
 * `ahead` of them before their turn, so Web Crypto (on its own threads in
 * Node, off the page's thread in browsers) works while the caller sends.
 */
export async function* inOrder<T>(
  count: number,
  work: (index: number) => Promise<T>,
  ahead = 2,
): AsyncGenerator<T, void, undefined> {
  const started: Promise<T>[] = [];
  let next = 0;
  const fill = (upTo: number): void => {
    while (next < count && next <= upTo) {
      const job = work(next++);
      // Awaited below in turn; this only keeps an early stop from leaving an unhandled rejection.
      job.catch(() => undefined);
      started.push(job);
    }
  };
  for (let i = 0; i < count; i++) {
    fill(i + ahead);
    const job = started.shift();
    if (job === undefined) return;
    yield await job;
  }
}
