/**
 * The upload journal in IndexedDB, in a database of its own per account
 * (the main store's schema and its migrations stay untouched): one record
 * per upload under way, bytes included until they are uploaded, so a
 * reload takes the upload up where it stood (uploads.ts).
 */
import { openDB } from "idb";
import type { DBSchema, IDBPDatabase } from "idb";
import { withFactory } from "../store/indexeddb/IndexedDbStore";
import type { UploadJournal, UploadRecord } from "./uploads";

const STORE = "uploads";
const VERSION = 1;

interface JournalDb extends DBSchema {
  uploads: { key: string; value: UploadRecord };
}

/** Options of the IndexedDB journal. */
export interface IndexedDbUploadJournalOptions {
  /** The IDBFactory: globalThis.indexedDB in browsers, fake-indexeddb in Node tests. */
  indexedDB: object;
  /** One per account, e.g. "lattice-uploads:@alice:example.org". */
  dbName: string;
}

/** Upload records in IndexedDB. */
export class IndexedDbUploadJournal implements UploadJournal {
  private db: Promise<IDBPDatabase<JournalDb>> | undefined;

  constructor(private readonly options: IndexedDbUploadJournalOptions) {}

  private open(): Promise<IDBPDatabase<JournalDb>> {
    this.db ??= withFactory(this.options.indexedDB, () =>
      openDB<JournalDb>(this.options.dbName, VERSION, {
        upgrade(db) {
          if (!db.objectStoreNames.contains(STORE)) db.createObjectStore(STORE, { keyPath: "id" });
        },
      }),
    );
    return this.db;
  }

  async all(): Promise<UploadRecord[]> {
    const records = await (await this.open()).getAll(STORE);
    return records.sort((a, b) => a.createdAt - b.createdAt);
  }

  async put(record: UploadRecord): Promise<void> {
    await (await this.open()).put(STORE, record);
  }

  async delete(id: string): Promise<void> {
    await (await this.open()).delete(STORE, id);
  }

  /** Closes the database (a page going away, or a test's "reload"). */
  async close(): Promise<void> {
    const db = this.db;
    this.db = undefined;
    // close() comes from the DOM's IDBDatabase, which the SDK core does not compile against.
    if (db) ((await db) as unknown as { close(): void }).close();
  }
}
