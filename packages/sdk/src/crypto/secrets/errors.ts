/**
 * The error of secret storage and recovery, with a code the UI can act on
 * (a wrong recovery key or passphrase is "wrong_key": ask again).
 */

/** What went wrong in secret storage or recovery. */
export type SecretStorageErrorCode =
  | "wrong_key"
  | "no_default_key"
  | "unknown_key"
  | "missing_secret"
  | "bad_format"
  | "unsupported_algorithm"
  | "crypto_failure"
  | "no_cross_signing";

/** A failure of secret storage or recovery; `cause` carries the underlying error. */
export class SecretStorageError extends Error {
  override readonly name = "SecretStorageError";
  constructor(
    readonly code: SecretStorageErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
