/**
 * The typed error of encrypted attachments. Every failure (malformed JSON
 * from a room event, a tampered blob, an HTTP failure around it) surfaces as
 * an AttachmentError with a code, never as a raw TypeError or DOMException.
 */

/** What went wrong with an encrypted attachment. */
export type AttachmentErrorCode =
  /** The EncryptedFile JSON does not have the spec's shape. */
  | "malformed_file"
  /** The file's `v` is not one this client decrypts (see decryptAttachment). */
  | "unsupported_version"
  /** The ciphertext's SHA-256 differs from `hashes.sha256`: tampered or truncated. */
  | "hash_mismatch"
  /** A 64-bit counter would wrap inside this file; senders disagree on the carry. */
  | "counter_wrap"
  /** Web Crypto is missing or refused the operation. */
  | "crypto_failure"
  /** The ciphertext could not be uploaded. */
  | "upload_failed"
  /** The ciphertext could not be downloaded. */
  | "download_failed";

/** A failure of attachment encryption, decryption or transfer; `cause` carries the underlying error. */
export class AttachmentError extends Error {
  override readonly name = "AttachmentError";
  constructor(
    readonly code: AttachmentErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
