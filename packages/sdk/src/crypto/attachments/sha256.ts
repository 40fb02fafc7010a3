/**
 * SHA-256 fed piece by piece, for attachments hashed while they stream.
 *
 * Web Crypto only hashes a whole buffer at once, which would force the file
 * to be gathered in one piece and hashed after the transfer, not during it.
 * So this is a platform seam: where the runtime offers an incremental hash
 * of its own (Node's built-in crypto module, found at run time through
 * `process.getBuiltinModule`, never imported, so bundles for browsers do not
 * see it) the pieces are hashed as they come; elsewhere the pieces are kept
 * and Web Crypto hashes them at the end. Both give the same digest (tested).
 */

/** An incremental SHA-256. */
export interface Sha256 {
  /** Adds bytes, which must stay unchanged until `digest()` (they may be kept, not copied). */
  update(bytes: Uint8Array): void;
  /** The digest of everything added; call once. */
  digest(): Promise<Uint8Array<ArrayBuffer>>;
}

/** Where the hash runs: "native" (the runtime's incremental hash, when it has one) or "webcrypto". */
export type Sha256Engine = "native" | "webcrypto";

interface NodeHash {
  update(data: Uint8Array): unknown;
  digest(): Uint8Array;
}
type CreateHash = (algorithm: string) => NodeHash;

let nativeCreateHash: CreateHash | null | undefined;

/** The runtime's incremental hash constructor, or null in browsers. */
function nativeHash(): CreateHash | null {
  if (nativeCreateHash !== undefined) return nativeCreateHash;
  nativeCreateHash = null;
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  try {
    const mod = proc?.getBuiltinModule?.("node:crypto") as { createHash?: unknown } | undefined;
    if (typeof mod?.createHash === "function") nativeCreateHash = mod.createHash as CreateHash;
  } catch {
    // No built-in module here: Web Crypto it is.
  }
  return nativeCreateHash;
}

/** Whether this runtime hashes pieces as they come ("native") or at the end ("webcrypto"). */
export function sha256Engine(): Sha256Engine {
  return nativeHash() ? "native" : "webcrypto";
}

class NativeSha256 implements Sha256 {
  private readonly hash: NodeHash;
  constructor(create: CreateHash) {
    this.hash = create("sha256");
  }
  update(bytes: Uint8Array): void {
    this.hash.update(bytes);
  }
  digest(): Promise<Uint8Array<ArrayBuffer>> {
    const out = this.hash.digest();
    return Promise.resolve(new Uint8Array(out));
  }
}

class WebCryptoSha256 implements Sha256 {
  private readonly pieces: Uint8Array[] = [];
  private length = 0;
  update(bytes: Uint8Array): void {
    this.pieces.push(bytes);
    this.length += bytes.byteLength;
  }
  async digest(): Promise<Uint8Array<ArrayBuffer>> {
    let whole: Uint8Array<ArrayBuffer>;
    const only = this.pieces.length === 1 ? this.pieces[0] : undefined;
    if (only !== undefined && only.buffer instanceof ArrayBuffer) {
      whole = only as Uint8Array<ArrayBuffer>;
    } else {
      whole = new Uint8Array(this.length);
      let at = 0;
      for (const piece of this.pieces) {
        whole.set(piece, at);
        at += piece.byteLength;
      }
    }
    this.pieces.length = 0;
    return new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", whole));
  }
}

/** A new incremental SHA-256 on `engine` (default: native where the runtime has it). */
export function createSha256(engine: Sha256Engine = sha256Engine()): Sha256 {
  const create = engine === "native" ? nativeHash() : null;
  return create ? new NativeSha256(create) : new WebCryptoSha256();
}
