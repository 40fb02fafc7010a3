/**
 * Wraps a persistent Store and degrades to memory on a storage failure
 * (quota, a browser that drops IndexedDB, private mode): the failure is
 * logged, nothing crashes, and nothing held in memory is lost, because every
 * write and every value read is mirrored into a MemoryStore that takes over
 * (the stored snapshot is kept by reference and copied only then). The
 * failure is published (`failure`, a StoreError 'WRITE_FAILED') so the
 * client can say that it now keeps data in memory only.
 */
import type { Logger } from "../util/logger";
import { ObservableValue } from "../util/observable";
import type { ReadonlyObservable } from "../util/observable";
import { STORE_DEGRADED_MESSAGE, StoreError } from "./errors";
import { cloneJson, MemoryStore } from "./MemoryStore";
import type { JsonObject, Store, StoredPendingEvent, StoredSync, StoredUser, ToDeviceBatch } from "./Store";

export class FallbackStore implements Store {
  private readonly mirror = new MemoryStore();
  private degraded = false;
  private readonly failureValue = new ObservableValue<StoreError | null>(null);
  /** The snapshot read from the primary, mirrored only when storage fails. */
  private readSync: StoredSync | undefined;

  constructor(
    private readonly primary: Store,
    private readonly logger: Pick<Logger, "warn"> = { warn: (m, e) => console.warn(m, e) },
  ) {}

  get kind(): "memory" | "indexeddb" {
    return this.degraded ? "memory" : this.primary.kind;
  }

  /** Null until storage fails; then the StoreError (its cause: the backend's error). */
  get failure(): ReadonlyObservable<StoreError | null> {
    return this.failureValue;
  }

  /** Whether storage failed and the store now lives in memory only. */
  get isDegraded(): boolean {
    return this.degraded;
  }

  private async attempt<T>(
    operation: string,
    onPrimary: () => Promise<T>,
    onMemory: () => Promise<T>,
  ): Promise<T> {
    if (!this.degraded) {
      try {
        return await onPrimary();
      } catch (error) {
        this.degraded = true;
        this.logger.warn(`Storage failed during ${operation}; continuing in memory`, error);
        this.failureValue.set(new StoreError("WRITE_FAILED", STORE_DEGRADED_MESSAGE, { cause: error }));
      }
    }
    return onMemory();
  }

  open(): Promise<void> {
    return this.attempt(
      "open",
      () => this.primary.open(),
      () => this.mirror.open(),
    );
  }

  async close(): Promise<void> {
    if (!this.degraded) await this.primary.close().catch(() => undefined);
  }

  async getSync(): Promise<StoredSync | null> {
    const mirrored = await this.mirror.getSync();
    if (mirrored) return mirrored;
    return this.attempt(
      "getSync",
      async () => {
        const sync = await this.primary.getSync();
        // Not copied into the mirror now (a deep copy of every room at start): only if storage fails later.
        if (sync) this.readSync = sync;
        return sync;
      },
      async () => (await this.mirror.getSync()) ?? (this.readSync ? cloneJson(this.readSync) : null),
    );
  }

  getRoomListSummary(part = 0): Promise<JsonObject | null> {
    return this.attempt(
      "getRoomListSummary",
      () => this.primary.getRoomListSummary(part),
      () => this.mirror.getRoomListSummary(part),
    );
  }

  setRoomListSummary(parts: readonly JsonObject[]): void {
    this.mirror.setRoomListSummary(parts);
    if (!this.degraded) this.primary.setRoomListSummary(parts);
  }

  setSync(sync: StoredSync): void {
    this.mirror.setSync(sync);
    if (!this.degraded) this.primary.setSync(sync);
  }

  getAccountData(): Promise<JsonObject[]> {
    return this.attempt(
      "getAccountData",
      async () => {
        const events = await this.primary.getAccountData();
        this.mirror.setAccountData(events);
        return events;
      },
      () => this.mirror.getAccountData(),
    );
  }

  setAccountData(events: readonly JsonObject[]): void {
    this.mirror.setAccountData(events);
    if (!this.degraded) this.primary.setAccountData(events);
  }

  getUsers(): Promise<StoredUser[]> {
    return this.attempt(
      "getUsers",
      async () => {
        const users = await this.primary.getUsers();
        this.mirror.setUsers(users);
        return users;
      },
      () => this.mirror.getUsers(),
    );
  }

  setUsers(users: readonly StoredUser[]): void {
    this.mirror.setUsers(users);
    if (!this.degraded) this.primary.setUsers(users);
  }

  getOutOfBandMembers(roomId: string): Promise<JsonObject[] | null> {
    return this.attempt(
      "getOutOfBandMembers",
      () => this.primary.getOutOfBandMembers(roomId),
      () => this.mirror.getOutOfBandMembers(roomId),
    );
  }

  async setOutOfBandMembers(roomId: string, members: readonly JsonObject[]): Promise<void> {
    await this.mirror.setOutOfBandMembers(roomId, members);
    await this.attempt("setOutOfBandMembers", () => this.primary.setOutOfBandMembers(roomId, members), noop);
  }

  async clearOutOfBandMembers(roomId: string): Promise<void> {
    await this.mirror.clearOutOfBandMembers(roomId);
    await this.attempt("clearOutOfBandMembers", () => this.primary.clearOutOfBandMembers(roomId), noop);
  }

  getClientOptions(): Promise<JsonObject | null> {
    return this.attempt(
      "getClientOptions",
      () => this.primary.getClientOptions(),
      () => this.mirror.getClientOptions(),
    );
  }

  async storeClientOptions(options: JsonObject): Promise<void> {
    await this.mirror.storeClientOptions(options);
    await this.attempt("storeClientOptions", () => this.primary.storeClientOptions(options), noop);
  }

  queueToDevice(batches: readonly ToDeviceBatch[]): Promise<ToDeviceBatch[]> {
    return this.attempt(
      "queueToDevice",
      async () => {
        const added = await this.primary.queueToDevice(batches);
        await this.mirror.queueToDevice(added);
        return added;
      },
      () => this.mirror.queueToDevice(batches),
    );
  }

  nextToDevice(): Promise<ToDeviceBatch | null> {
    return this.attempt(
      "nextToDevice",
      async () => {
        const next = await this.primary.nextToDevice();
        if (next?.id !== undefined) await this.mirror.queueToDevice([next]);
        return next;
      },
      () => this.mirror.nextToDevice(),
    );
  }

  async removeToDevice(id: number): Promise<void> {
    await this.mirror.removeToDevice(id);
    await this.attempt("removeToDevice", () => this.primary.removeToDevice(id), noop);
  }

  getPendingEvents(): Promise<StoredPendingEvent[]> {
    return this.attempt(
      "getPendingEvents",
      async () => {
        const events = await this.primary.getPendingEvents();
        for (const event of events) await this.mirror.putPendingEvent(event);
        return events;
      },
      () => this.mirror.getPendingEvents(),
    );
  }

  async putPendingEvent(event: StoredPendingEvent): Promise<void> {
    await this.mirror.putPendingEvent(event);
    await this.attempt("putPendingEvent", () => this.primary.putPendingEvent(event), noop);
  }

  async removePendingEvent(txnId: string): Promise<void> {
    await this.mirror.removePendingEvent(txnId);
    await this.attempt("removePendingEvent", () => this.primary.removePendingEvent(txnId), noop);
  }

  wantsSave(): boolean {
    return !this.degraded && this.primary.wantsSave();
  }

  save(force = false): Promise<void> {
    return this.attempt("save", () => this.primary.save(force), noop);
  }

  async deleteAllData(): Promise<void> {
    await this.mirror.deleteAllData();
    this.readSync = undefined;
    await this.attempt("deleteAllData", () => this.primary.deleteAllData(), noop);
  }
}

function noop(): Promise<void> {
  return Promise.resolve();
}
