/**
 * The Store interface: what the sync engine persists between runs so a
 * client starts instantly. Every backend passes the same conformance suite
 * (store.conformance.ts). Writes are staged in memory and persisted by
 * `save`, at most every SAVE_INTERVAL_MS unless forced, in one transaction.
 */

/** A JSON object as stored: events, accumulator snapshots, options. */
export type JsonObject = Record<string, unknown>;

/** The accumulated sync snapshot (see sync/accumulator) and the token to continue from. */
export interface StoredSync {
  nextBatch: string;
  /** The accumulator's serialised rooms; opaque to the store. */
  roomsData: JsonObject;
}

/** One queued to-device batch, kept until sent so a reload sends it exactly once. */
export interface ToDeviceBatch {
  /** Assigned by the store. */
  id?: number;
  txnId: string;
  eventType: string;
  messages: Array<{ userId: string; deviceId: string; payload: JsonObject }>;
}

/**
 * One event the send queue has not seen the server accept yet (our extension
 * of the spec's stores, schema v5): kept with its transaction id so a reload
 * resends it exactly once (the server de-duplicates by txn id).
 */
export interface StoredPendingEvent {
  /** The transaction id; the record's key. */
  txnId: string;
  roomId: string;
  /** Queue order across all rooms; events of a room are sent in this order. */
  seq: number;
  /** "event" for PUT /send, "redaction" for PUT /redact. */
  kind: "event" | "redaction";
  /** The event type (m.room.redaction for redactions). */
  eventType: string;
  /** The local (unencrypted) content, or the redaction body. */
  content: JsonObject;
  /** The redacted event's id, once known. */
  redacts?: string;
  /** The txn id of an earlier pending event this one points at (a redaction or reaction of a local echo). */
  dependsOnTxnId?: string;
  /** The outgoing status when last persisted (see models/event-status). */
  status: string;
  /** Why it failed, when status is not_sent. */
  failure?: { kind: string; message: string };
  createdAt: number;
}

/** A cached user: the latest presence event and profile seen. */
export interface StoredUser {
  userId: string;
  presence?: JsonObject;
  displayName?: string;
  avatarUrl?: string;
}

/** Saves are throttled to once every five minutes unless forced (SPEC §9). */
export const SAVE_INTERVAL_MS = 300_000;

export interface Store {
  /** "memory" or "indexeddb"; a degraded store reports "memory". */
  readonly kind: "memory" | "indexeddb";
  /** Opens the backend (creating or migrating it). */
  open(): Promise<void>;
  close(): Promise<void>;

  getSync(): Promise<StoredSync | null>;
  /** Stages the latest snapshot; persisted by the next save. */
  setSync(sync: StoredSync): void;

  /**
   * One part of the room list summary (our extension, schema v6): compact
   * records read first at start so the room list shows before the snapshot
   * loads (models/room-list/summary-cache.ts). Part 0 is the first
   * screenful, read before the rows show; the others follow. Null when the
   * part was not saved.
   */
  getRoomListSummary(part?: number): Promise<JsonObject | null>;
  /**
   * Stages the room list summary's parts (replacing every stored part);
   * persisted by the next save, beside the snapshot.
   */
  setRoomListSummary(parts: readonly JsonObject[]): void;

  getAccountData(): Promise<JsonObject[]>;
  /** Stages global account data events (by type, the latest wins). */
  setAccountData(events: readonly JsonObject[]): void;

  getUsers(): Promise<StoredUser[]>;
  setUsers(users: readonly StoredUser[]): void;

  /** Out-of-band members of a room; null when never loaded (distinct from loaded and empty). */
  getOutOfBandMembers(roomId: string): Promise<JsonObject[] | null>;
  /** Writes a room's out-of-band members at once, keyed by room_id and state_key. */
  setOutOfBandMembers(roomId: string, members: readonly JsonObject[]): Promise<void>;
  clearOutOfBandMembers(roomId: string): Promise<void>;

  getClientOptions(): Promise<JsonObject | null>;
  storeClientOptions(options: JsonObject): Promise<void>;

  /** Adds batches to the to-device queue; returns them with ids. */
  queueToDevice(batches: readonly ToDeviceBatch[]): Promise<ToDeviceBatch[]>;
  /** The oldest queued batch, if any. */
  nextToDevice(): Promise<ToDeviceBatch | null>;
  removeToDevice(id: number): Promise<void>;

  /** Every pending outgoing event, in queue order (seq). */
  getPendingEvents(): Promise<StoredPendingEvent[]>;
  /** Adds or replaces a pending event (by txnId), written at once. */
  putPendingEvent(event: StoredPendingEvent): Promise<void>;
  removePendingEvent(txnId: string): Promise<void>;

  /** Whether enough time has passed since the last save. */
  wantsSave(): boolean;
  /** Persists staged data (when forced or when wantsSave). Resolves once committed. */
  save(force?: boolean): Promise<void>;
  /** Deletes everything this store holds. */
  deleteAllData(): Promise<void>;
}
