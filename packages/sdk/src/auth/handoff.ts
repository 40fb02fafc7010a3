/**
 * The refresh handoff: how a page that refreshed under the pages' lock
 * passes its new tokens to the pages that waited on that lock.
 *
 * The stored session (localStorage in the web app) is not enough: Chromium
 * carries a localStorage write to other tabs asynchronously, in no order
 * with the lock's release, so a tab granted the lock at once can still read
 * the old session and spend the refresh token the first tab used (a strict
 * provider then revokes the whole grant). IndexedDB is ordered: a
 * transaction begun after another one completed sees its writes, whichever
 * page made them. So the refreshing page records "refresh token R became
 * these tokens" and waits for the write to complete before it lets the lock
 * go, and a page holding R reads that record once it has the lock.
 *
 * A record is kept per lock name (user and device) and is only taken within
 * HANDOFF_TTL_MS of being written, and removed when the session signs out
 * or is soft logged out. Failures are the caller's to ignore: the refusal
 * path (Session.adoptStoredTokens) remains behind it.
 */

/** The tokens a refresh gave. */
export interface HandedTokens {
  readonly accessToken: string;
  readonly refreshToken?: string;
  /** Absolute (ms since the epoch). */
  readonly expiresAt?: number;
}

export interface RefreshHandoff {
  /** Records that the refresh token `used` became `tokens`; resolves once every page can read it. */
  give(name: string, used: string, tokens: HandedTokens): Promise<void>;
  /** The tokens another page got for the refresh token `used`, if it refreshed it lately. */
  take(name: string, used: string): Promise<HandedTokens | undefined>;
  /** Removes the record (signed out: no tokens are left behind). */
  forget(name: string): Promise<void>;
}

/** How long after writing a handoff is taken: the waiting page reads it as soon as the lock is free. */
export const HANDOFF_TTL_MS = 60_000;

const DB_NAME = "lattice-refresh-handoff";
const STORE = "handoff";

interface HandoffRecord extends HandedTokens {
  readonly used: string;
  readonly at: number;
}

/* The part of IndexedDB used here (the SDK's core has no DOM types). */
interface Req<T> {
  result: T;
  error: unknown;
  onsuccess: (() => void) | null;
  onerror: (() => void) | null;
}
interface OpenReq extends Req<Db> {
  onupgradeneeded: (() => void) | null;
}
interface Db {
  objectStoreNames: { contains(name: string): boolean };
  createObjectStore(name: string): unknown;
  transaction(store: string, mode: "readonly" | "readwrite"): Tx;
  close(): void;
}
interface Tx {
  objectStore(name: string): {
    get(key: string): Req<unknown>;
    put(value: unknown, key: string): Req<unknown>;
    delete(key: string): Req<unknown>;
  };
  oncomplete: (() => void) | null;
  onerror: (() => void) | null;
  onabort: (() => void) | null;
  error: unknown;
}
/** An IndexedDB factory (globalThis.indexedDB, or fake-indexeddb's in Node). */
export interface IdbFactoryLike {
  open(name: string, version: number): unknown;
}

function request<T>(req: Req<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () =>
      reject(req.error instanceof Error ? req.error : new Error("IndexedDB request failed"));
  });
}

function completed(tx: Tx): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = tx.onabort = () =>
      reject(tx.error instanceof Error ? tx.error : new Error("IndexedDB transaction failed"));
  });
}

function isRecord(value: unknown): value is HandoffRecord {
  if (typeof value !== "object" || value === null) return false;
  const r = value as Record<string, unknown>;
  return (
    typeof r["used"] === "string" &&
    typeof r["at"] === "number" &&
    typeof r["accessToken"] === "string" &&
    (r["refreshToken"] === undefined || typeof r["refreshToken"] === "string") &&
    (r["expiresAt"] === undefined || typeof r["expiresAt"] === "number")
  );
}

/** The handoff on IndexedDB (one small database of its own); `now` is the clock. */
export function indexedDbHandoff(factory: IdbFactoryLike, now: () => number = Date.now): RefreshHandoff {
  let db: Promise<Db> | undefined;
  const open = (): Promise<Db> => {
    db ??= new Promise<Db>((resolve, reject) => {
      const req = factory.open(DB_NAME, 1) as OpenReq;
      req.onupgradeneeded = () => {
        if (!req.result.objectStoreNames.contains(STORE)) req.result.createObjectStore(STORE);
      };
      request(req).then(resolve, reject);
    }).catch((error: unknown) => {
      db = undefined; // the next call tries again
      throw error;
    });
    return db;
  };
  return {
    async give(name, used, tokens) {
      const tx = (await open()).transaction(STORE, "readwrite");
      const done = completed(tx);
      const { accessToken, refreshToken, expiresAt } = tokens;
      const record: HandoffRecord = { used, at: now(), accessToken, refreshToken, expiresAt };
      tx.objectStore(STORE).put(record, name);
      await done;
    },
    async forget(name) {
      const tx = (await open()).transaction(STORE, "readwrite");
      const done = completed(tx);
      tx.objectStore(STORE).delete(name);
      await done;
    },
    async take(name, used) {
      const tx = (await open()).transaction(STORE, "readonly");
      const value = await request(tx.objectStore(STORE).get(name));
      if (!isRecord(value) || value.used !== used) return undefined;
      if (now() - value.at > HANDOFF_TTL_MS || value.at > now() + HANDOFF_TTL_MS) return undefined;
      const { accessToken, refreshToken, expiresAt } = value;
      return { accessToken, refreshToken, expiresAt };
    },
  };
}

/** The platform's IndexedDB handoff, or undefined where there is no IndexedDB (Node). */
export function platformHandoff(): RefreshHandoff | undefined {
  const factory = (globalThis as { indexedDB?: Partial<IdbFactoryLike> }).indexedDB;
  if (typeof factory?.open !== "function") return undefined;
  return indexedDbHandoff(factory as IdbFactoryLike);
}
