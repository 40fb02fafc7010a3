/**
 * The store domain's one error class. A backend raises it where it decides
 * itself that it cannot go on (not open, no migration, a stored snapshot
 * missing a chunk); the degrading wrapper (FallbackStore) publishes one when
 * storage failed and the store continues in memory, and the sync loop sorts
 * it as a store failure, not a lost connection.
 */

/** What the banner says when storage failed and the client continues in memory. */
export const STORE_DEGRADED_MESSAGE = "Saving on this device failed; continuing in memory";

/** Machine-readable reason of a StoreError. */
export type StoreErrorCode =
  /** A call before open() or after close(). */
  | "NOT_OPEN"
  /** The stored schema is of a version this code cannot migrate from. */
  | "SCHEMA"
  /** Stored data is incomplete or unreadable. */
  | "CORRUPT"
  /** A write (or the storage itself) failed; the wrapper continues in memory. */
  | "WRITE_FAILED";

/** An error of the local store; `cause` is the backend's own error where there is one. */
export class StoreError extends Error {
  readonly code: StoreErrorCode;

  constructor(code: StoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StoreError";
    this.code = code;
  }
}
