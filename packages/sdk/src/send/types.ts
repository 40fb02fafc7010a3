/**
 * The shapes the send queue exposes: the immutable snapshot of a pending
 * event (its local echo), the injected encrypt function and the queue's
 * options.
 */
import type { HttpApi } from "../http/types";
import type { RetryPolicy } from "../http/retry";
import type { TxnIdGenerator } from "../http/txn";
import type { EventStatus } from "../models/event-status";
import type { JsonObject, Store } from "../store/Store";
import type { Scheduler } from "../util/scheduler";
import type { SyncState } from "../sync/SyncLoop";
import type { ReadonlyObservable } from "../util/observable";
import type { SendFailure } from "./failure";

/** A local echo: what the UI shows until the server's copy arrives. Never mutated. */
export interface PendingEvent {
  readonly txnId: string;
  readonly roomId: string;
  /** "event" for PUT /send, "redaction" for PUT /redact. */
  readonly kind: "event" | "redaction";
  /** The event type (m.room.redaction for redactions). */
  readonly type: string;
  /** The local, unencrypted content (the reason, for a redaction). */
  readonly content: Readonly<JsonObject>;
  /** What a redaction redacts: an event id, or the txn id of a local echo not sent yet. */
  readonly redacts?: string;
  /** The status; null once the remote echo has arrived (the echo then replaces it). */
  readonly status: EventStatus | null;
  /** The id the server gave it, once sent. */
  readonly eventId?: string;
  /** Why it is not_sent. */
  readonly failure?: SendFailure;
  /** When it was queued (ms since epoch). */
  readonly createdAt: number;
}

/** How one event is sent. */
export interface SendOptions {
  /** Signalling the user does not see: no local echo in `room()`, not persisted. */
  hidden?: boolean;
  /** The transaction id to send under (a caller that persists its own retries); a fresh one otherwise. */
  txnId?: string;
}

/** Encrypts a room event (the crypto adapter's function); returns the event to send instead. */
export type EncryptFn = (
  roomId: string,
  type: string,
  content: JsonObject,
) => Promise<{ type: string; content: JsonObject }>;

/** The remote echo of one of our events replaced its local echo. */
export interface RemoteEcho {
  roomId: string;
  txnId: string;
  eventId: string;
}

export interface SendQueueOptions {
  http: HttpApi;
  /** Where pending events persist across reloads (the to-device queue lives there too). */
  store: Store;
  /** Time and randomness (backoff jitter); defaults to the real ones. */
  scheduler?: Scheduler;
  /** Transaction ids; defaults to 'm' + timestamp + counter on the scheduler's clock. */
  txnIds?: TxnIdGenerator;
  /** The crypto adapter's encrypt; without it, sending into an encrypted room fails. */
  encrypt?: EncryptFn;
  /**
   * Whether a room is encrypted, from the room model. The queue also learns
   * m.room.encryption from the sync batches it is given; either one counts.
   */
  isRoomEncrypted?: (roomId: string) => boolean;
  /**
   * Whether the client knows the room (the room model). When given, a send,
   * reaction or redaction naming an unknown room throws 'Unknown room'.
   */
  knowsRoom?: (roomId: string) => boolean;
  /** The sync state: sends are held while it is reconnecting or error, and resume after. */
  connection?: ReadonlyObservable<SyncState | null>;
  /** Per-event retries of transient failures. */
  retry?: Partial<RetryPolicy>;
  logger?: { warn(message: string, error?: unknown): void };
}
