/**
 * What the processing pipeline hands to the model layer, and the hooks it
 * takes: the typed batch, the decrypt hook the crypto layer plugs in, and
 * the subscriber signature.
 */
import type { ParsedSync } from "../validate/types";

/**
 * One batch for the model layer, emitted only once it is persisted. Treat it
 * as read-only: the accumulator may share its event objects.
 */
export interface ProcessedSync extends ParsedSync {
  /** Restored from the store at start (instant start), not from the network. */
  fromCache: boolean;
  /** The token this batch continued from; undefined for an initial or a restored batch. */
  since?: string;
  /** Answered a sync with timeout 0 after a failure. */
  catchingUp: boolean;
}

/**
 * The decrypt phase: may return a batch in which m.room.encrypted events are
 * replaced by decrypted ones (and to-device events consumed). It sees the
 * batch after validation and de-duplication. Undecryptable events should be
 * kept as they are, not thrown: a throw aborts the batch and the loop fetches
 * it again. Decrypted events are emitted only, never persisted.
 */
export type DecryptHook = (batch: ParsedSync) => Promise<ParsedSync>;

/** A subscriber of processed batches; awaited in order, its errors logged. */
export type SyncBatchListener = (batch: ProcessedSync) => void | Promise<void>;

/** The default decrypt hook: leaves the batch as it is. */
export const noDecrypt: DecryptHook = (batch) => Promise.resolve(batch);
