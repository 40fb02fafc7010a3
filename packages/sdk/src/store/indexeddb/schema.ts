/**
 * The IndexedDB schema and its ordered migrations. Version N is reached by
 * running migrations 1..N in order, so a database of any older version opens
 * at the current one without losing data. Never edit a released migration:
 * add the next one.
 */
import { StoreError } from "../errors";
import type { DBSchema, IDBPDatabase, IDBPTransaction, StoreNames } from "idb";
import type { JsonObject, StoredPendingEvent, StoredUser, ToDeviceBatch } from "../Store";
import type { ChunkRef, SyncChunk } from "./sync-chunks";

/** The object store names, as SPEC §3 lists them. */
export const OBJECT_STORES = [
  "users",
  "accountData",
  "sync",
  "oob_membership_events",
  "client_options",
  "to_device_queue",
] as const;

/**
 * Object stores beyond the spec's list, added by later schema versions: v5's
 * pending_events for the send queue (docs/architecture/0008-send-queue.md),
 * v6's room_list for the room list summary read first at start
 * (docs/architecture/0006-models.md) and sync_chunks for the sync snapshot's
 * rooms, read a chunk at a time (sync-chunks.ts).
 */
export const EXTENSION_STORES = ["pending_events", "room_list", "sync_chunks"] as const;

/** The sync record and the client options live under one fixed key. */
export const SINGLETON_KEY = "-";

export interface LatticeDb extends DBSchema {
  users: { key: string; value: StoredUser };
  accountData: { key: string; value: JsonObject & { type: string } };
  sync: {
    key: string;
    /** `writer`: which store instance's save wrote the chunks (a save of another instance, or tab, rewrites them all). */
    value: {
      clobber: string;
      nextBatch: string;
      roomsData: JsonObject;
      chunks?: ChunkRef[];
      writer?: string;
    };
  };
  oob_membership_events: {
    key: [string, string];
    value: JsonObject & { room_id: string; state_key: string };
    indexes: { room: string };
  };
  client_options: { key: string; value: { clobber: string; options: JsonObject } };
  to_device_queue: { key: number; value: ToDeviceBatch & { id: number } };
  pending_events: { key: string; value: StoredPendingEvent; indexes: { seq: number } };
  /** The summary as one JSON string (it parses faster than a structured clone of 3,000 entries reads); an object in older records. */
  room_list: { key: string; value: { clobber: string; summary: string | JsonObject } };
  sync_chunks: { key: string; value: SyncChunk };
}

type UpgradeTx = IDBPTransaction<LatticeDb, StoreNames<LatticeDb>[], "versionchange">;
type Migration = (db: IDBPDatabase<LatticeDb>, tx: UpgradeTx) => void;

/** migrations[i] upgrades a database from version i to version i + 1. */
export const MIGRATIONS: readonly Migration[] = [
  // v1: users, account data and the sync snapshot.
  (db) => {
    db.createObjectStore("users", { keyPath: "userId" });
    db.createObjectStore("accountData", { keyPath: "type" });
    db.createObjectStore("sync", { keyPath: "clobber" });
  },
  // v2: out-of-band (lazy-loaded) members, keyed by room_id and state_key.
  (db) => {
    const oob = db.createObjectStore("oob_membership_events", { keyPath: ["room_id", "state_key"] });
    oob.createIndex("room", "room_id");
  },
  // v3: the options the cached sync was made with.
  (db) => {
    db.createObjectStore("client_options", { keyPath: "clobber" });
  },
  // v4: the to-device queue, so pending to-device messages survive a reload.
  (db) => {
    db.createObjectStore("to_device_queue", { keyPath: "id", autoIncrement: true });
  },
  // v5 (our extension): the send queue's pending events, keyed by txn id and read in queue order.
  (db) => {
    const pending = db.createObjectStore("pending_events", { keyPath: "txnId" });
    pending.createIndex("seq", "seq");
  },
  // v6 (our extension): the room list summary, one record read before the sync snapshot,
  // and the snapshot's rooms in chunk records.
  (db) => {
    db.createObjectStore("room_list", { keyPath: "clobber" });
    db.createObjectStore("sync_chunks", { keyPath: "key" });
  },
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** Runs the migrations from oldVersion up to newVersion. */
export function upgrade(
  db: IDBPDatabase<LatticeDb>,
  oldVersion: number,
  newVersion: number,
  tx: UpgradeTx,
): void {
  for (let v = oldVersion; v < newVersion; v++) {
    const migration = MIGRATIONS[v];
    if (!migration) throw new StoreError("SCHEMA", `No migration from schema version ${v}`);
    migration(db, tx);
  }
}
