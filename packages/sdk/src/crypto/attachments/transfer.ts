/**
 * Upload and download of encrypted attachments over the content repository
 * (api/media.ts), encrypted and decrypted while the bytes travel.
 *
 * Upload: the file is encrypted in pieces (ctr.ts), each hashed and sent
 * while the next is encrypted. Where the runtime streams request bodies
 * (Node) the pieces go out as one streamed body with its Content-Length;
 * browsers stream uploads only over HTTP/2, so there the pieces become a
 * Blob (no second contiguous copy of the file). The ciphertext goes as
 * application/octet-stream with no file name (the server learns neither the
 * name nor the type of the file), and `url` is filled with the mxc URI.
 *
 * Download: the EncryptedFile is validated before any request; the body is
 * hashed and decrypted piece by piece as it streams in, from the
 * authenticated media endpoint (falling back to /_matrix/media/v3 unless
 * the caller chose one). No plaintext leaves this module before the
 * SHA-256 of the whole ciphertext matched `hashes.sha256`.
 */
import { downloadContentStream, parseMxc, uploadContent } from "../../api/media";
import type { MediaReadOptions } from "../../api/media";
import { canStreamUploads } from "../../http/upload";
import type { BodyReader, HttpApi, StreamedBody, UploadProgress } from "../../http/types";
import type { EncryptAttachmentOptions, Key } from "./cipher";
import { checkCounter, checkDigest, fileInfo, importKey, newKeyMaterial, webCrypto } from "./cipher";
import { PIECE_BYTES, ctrPiece, inOrder } from "./ctr";
import { AttachmentError } from "./errors";
import { createSha256 } from "./sha256";
import type { Sha256Engine } from "./sha256";
import type { AttachmentDecodeOptions, DecodedFileInfo } from "./validate";
import { decodeFileInfo, validateEncryptedFile } from "./validate";
import type { EncryptedFile } from "./wire-types";

/** Options of `uploadEncryptedAttachment`. */
export interface UploadEncryptedOptions extends EncryptAttachmentOptions {
  /** Progress of the ciphertext upload (its size equals the plaintext's). */
  onUploadProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Send the pieces as one streamed body (default: where the runtime can) or as a Blob. */
  streamBody?: boolean;
  /** Where the SHA-256 runs (default: the runtime's incremental hash where it has one). */
  hashEngine?: Sha256Engine;
}

/** The ciphertext pieces of `data`, encrypted a few ahead of the reader. */
function encryptedPieces(
  key: Key,
  iv: Uint8Array,
  data: Uint8Array,
): AsyncGenerator<Uint8Array<ArrayBuffer>> {
  const count = Math.ceil(data.byteLength / PIECE_BYTES);
  return inOrder(count, (i) => {
    const offset = i * PIECE_BYTES;
    const piece = data.subarray(offset, offset + PIECE_BYTES);
    return webCrypto("encryption", () => ctrPiece(key, iv, 64, offset, piece, "encrypt"));
  });
}

/**
 * Encrypts `data`, uploads the ciphertext and returns the complete
 * EncryptedFile for the event's `file` (or `info.thumbnail_file`). Throws
 * AttachmentError: crypto_failure, or upload_failed with the HTTP layer's
 * error as `cause` (a ConnectionError of kind "aborted" after an abort).
 */
export async function uploadEncryptedAttachment(
  http: HttpApi,
  data: Uint8Array,
  options: UploadEncryptedOptions = {},
): Promise<EncryptedFile> {
  const { key, iv } = newKeyMaterial(options.randomBytes);
  try {
    const cryptoKey = await webCrypto("encryption", () => importKey(key, "encrypt"));
    let digest: Uint8Array | undefined;
    let failure: unknown;
    let body: Blob | StreamedBody;
    if (options.streamBody ?? canStreamUploads()) {
      body = {
        length: data.byteLength,
        // Each attempt encrypts afresh under the same key and counter: the same bytes, hashed again.
        open: () => {
          const hash = createSha256(options.hashEngine);
          const pieces = encryptedPieces(cryptoKey, iv, data);
          return new ReadableStream<Uint8Array>({
            async pull(ctl) {
              try {
                const next = await pieces.next();
                if (next.done) {
                  digest = await hash.digest();
                  ctl.close();
                  return;
                }
                hash.update(next.value);
                ctl.enqueue(next.value);
              } catch (error) {
                failure = error;
                throw error;
              }
            },
            async cancel() {
              await pieces.return(undefined);
            },
          });
        },
      };
    } else {
      const hash = createSha256(options.hashEngine);
      const parts: Uint8Array<ArrayBuffer>[] = [];
      for await (const piece of encryptedPieces(cryptoKey, iv, data)) {
        hash.update(piece);
        parts.push(piece);
      }
      digest = await hash.digest();
      body = new Blob(parts);
    }
    let contentUri: string;
    try {
      const response = await uploadContent(http, body, {
        contentType: "application/octet-stream",
        ...(options.onUploadProgress ? { onUploadProgress: options.onUploadProgress } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      });
      contentUri = response.content_uri;
      // A URI we could not download from later is a failed upload, not a file.
      parseMxc(contentUri);
    } catch (error) {
      // Encryption failing under the streamed body is the cause, not the transfer it broke.
      if (failure instanceof AttachmentError) throw failure;
      throw new AttachmentError("upload_failed", "Encrypted file upload failed", { cause: error });
    }
    // The server answers only after the whole body, so the last piece was hashed.
    if (digest === undefined) throw new AttachmentError("crypto_failure", "Attachment hashing failed");
    return { url: contentUri, ...fileInfo(key, iv, digest) };
  } finally {
    key.fill(0);
  }
}

/** Options of `downloadEncryptedAttachment`. */
export type DownloadEncryptedOptions = MediaReadOptions &
  AttachmentDecodeOptions & {
    /** Where the SHA-256 runs (default: the runtime's incremental hash where it has one). */
    hashEngine?: Sha256Engine;
  };

/**
 * Hashes and decrypts a body as it arrives: network chunks are gathered
 * into pieces on 16-byte boundaries, each decrypted by Web Crypto while
 * the next arrives, and written into the output as it is ready (when the
 * server gave the length; else put together at the end). The output is
 * returned only after the hash of the whole ciphertext matched; otherwise
 * it is wiped and the error thrown.
 */
async function decryptBody(
  body: BodyReader,
  info: DecodedFileInfo,
  key: Key,
  engine: Sha256Engine | undefined,
): Promise<Uint8Array<ArrayBuffer>> {
  const hash = createSha256(engine);
  // Web Crypto copies its input when called, so one staging buffer serves every piece.
  const staging = new Uint8Array(PIECE_BYTES);
  let out = body.length !== null ? new Uint8Array(body.length) : undefined;
  let filled = 0;
  let offset = 0;
  const parts: Promise<Uint8Array<ArrayBuffer>>[] = [];
  const dispatch = (): void => {
    const at = offset;
    const piece = staging.subarray(0, filled);
    const job = webCrypto("decryption", () => ctrPiece(key, info.iv, info.counterBits, at, piece, "decrypt"));
    // Into place as soon as it is ready; awaited below (this also keeps an early failure handled).
    job
      .then((plain) => out !== undefined && at + plain.byteLength <= out.byteLength && out.set(plain, at))
      .catch(() => undefined);
    parts.push(job);
    offset += filled;
    filled = 0;
  };
  for (let chunk = await body.read(); chunk !== undefined; chunk = await body.read()) {
    hash.update(chunk);
    for (let at = 0; at < chunk.byteLength;) {
      const n = Math.min(PIECE_BYTES - filled, chunk.byteLength - at);
      staging.set(chunk.subarray(at, at + n), filled);
      filled += n;
      at += n;
      if (filled === PIECE_BYTES) dispatch();
    }
  }
  if (filled > 0) dispatch();
  const digest = await webCrypto("hashing", () => hash.digest());
  const settled = await Promise.allSettled(parts);
  try {
    checkDigest(digest, info.sha256);
    checkCounter(info.iv, info.counterBits, offset);
    for (const result of settled) if (result.status === "rejected") throw result.reason;
  } catch (error) {
    out?.fill(0);
    throw error;
  }
  if (out === undefined || out.byteLength !== offset) {
    // No length from the server (or a wrong one, which the hash still vouched for): put it together now.
    out = new Uint8Array(offset);
    let at = 0;
    for (const result of settled) {
      if (result.status !== "fulfilled") continue;
      out.set(result.value, at);
      at += result.value.byteLength;
    }
  }
  return out;
}

/**
 * Downloads and decrypts the file an untrusted EncryptedFile describes.
 * Throws AttachmentError: malformed_file or unsupported_version before any
 * request; download_failed with the HTTP layer's error as `cause`;
 * hash_mismatch, counter_wrap or crypto_failure after the download.
 */
export async function downloadEncryptedAttachment(
  http: HttpApi,
  file: unknown,
  options: DownloadEncryptedOptions = {},
): Promise<Uint8Array<ArrayBuffer>> {
  const decode: AttachmentDecodeOptions =
    options.allowLegacyVersions !== undefined ? { allowLegacyVersions: options.allowLegacyVersions } : {};
  const valid = validateEncryptedFile(file, decode);
  const info = decodeFileInfo(valid, decode);
  try {
    const key = await webCrypto("decryption", () => importKey(info.key, "decrypt"));
    return await downloadContentStream(
      http,
      valid.url,
      (body) => decryptBody(body, info, key, options.hashEngine),
      {
        ...(options.authenticatedMedia !== undefined
          ? { authenticatedMedia: options.authenticatedMedia }
          : {}),
        ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      },
    );
  } catch (error) {
    if (error instanceof AttachmentError) throw error;
    throw new AttachmentError("download_failed", "Encrypted file download failed", { cause: error });
  } finally {
    info.key.fill(0);
  }
}
