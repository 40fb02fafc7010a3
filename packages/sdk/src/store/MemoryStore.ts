/**
 * A Store that keeps everything in memory: the default for guests and tests,
 * and what a persistent store degrades to when storage fails.
 */
import type { JsonObject, Store, StoredPendingEvent, StoredSync, StoredUser, ToDeviceBatch } from "./Store";

/** Deep copy through JSON, so callers never share mutable state with the store. */
export function cloneJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

export class MemoryStore implements Store {
  readonly kind = "memory" as const;
  private sync: StoredSync | null = null;
  private accountData = new Map<string, JsonObject>();
  private users = new Map<string, StoredUser>();
  private oob = new Map<string, JsonObject[]>();
  private options: JsonObject | null = null;
  private toDevice = new Map<number, ToDeviceBatch>();
  private nextId = 1;
  private pendingEvents = new Map<string, StoredPendingEvent>();

  open(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  getSync(): Promise<StoredSync | null> {
    return Promise.resolve(this.sync ? cloneJson(this.sync) : null);
  }

  setSync(sync: StoredSync): void {
    this.sync = cloneJson(sync);
  }

  getAccountData(): Promise<JsonObject[]> {
    return Promise.resolve(cloneJson([...this.accountData.values()]));
  }

  setAccountData(events: readonly JsonObject[]): void {
    for (const event of events) {
      if (typeof event["type"] === "string") this.accountData.set(event["type"], cloneJson(event));
    }
  }

  getUsers(): Promise<StoredUser[]> {
    return Promise.resolve(cloneJson([...this.users.values()]));
  }

  setUsers(users: readonly StoredUser[]): void {
    for (const user of users) this.users.set(user.userId, cloneJson(user));
  }

  getOutOfBandMembers(roomId: string): Promise<JsonObject[] | null> {
    const members = this.oob.get(roomId);
    return Promise.resolve(members ? cloneJson(members) : null);
  }

  setOutOfBandMembers(roomId: string, members: readonly JsonObject[]): Promise<void> {
    this.oob.set(roomId, cloneJson([...members]));
    return Promise.resolve();
  }

  clearOutOfBandMembers(roomId: string): Promise<void> {
    this.oob.delete(roomId);
    return Promise.resolve();
  }

  getClientOptions(): Promise<JsonObject | null> {
    return Promise.resolve(this.options ? cloneJson(this.options) : null);
  }

  storeClientOptions(options: JsonObject): Promise<void> {
    this.options = cloneJson(options);
    return Promise.resolve();
  }

  queueToDevice(batches: readonly ToDeviceBatch[]): Promise<ToDeviceBatch[]> {
    const added = batches.map((batch) => {
      // An id given by the caller is kept (a mirror of a persistent queue); otherwise one is assigned.
      const id = batch.id ?? this.nextId;
      this.nextId = Math.max(this.nextId, id + 1);
      const stored = { ...cloneJson(batch), id };
      this.toDevice.set(stored.id, stored);
      return cloneJson(stored);
    });
    return Promise.resolve(added);
  }

  nextToDevice(): Promise<ToDeviceBatch | null> {
    const first = [...this.toDevice.values()][0];
    return Promise.resolve(first ? cloneJson(first) : null);
  }

  removeToDevice(id: number): Promise<void> {
    this.toDevice.delete(id);
    return Promise.resolve();
  }

  getPendingEvents(): Promise<StoredPendingEvent[]> {
    const events = [...this.pendingEvents.values()].sort((a, b) => a.seq - b.seq);
    return Promise.resolve(cloneJson(events));
  }

  putPendingEvent(event: StoredPendingEvent): Promise<void> {
    this.pendingEvents.set(event.txnId, cloneJson(event));
    return Promise.resolve();
  }

  removePendingEvent(txnId: string): Promise<void> {
    this.pendingEvents.delete(txnId);
    return Promise.resolve();
  }

  wantsSave(): boolean {
    return false;
  }

  save(): Promise<void> {
    return Promise.resolve();
  }

  deleteAllData(): Promise<void> {
    this.sync = null;
    this.accountData.clear();
    this.users.clear();
    this.oob.clear();
    this.options = null;
    this.toDevice.clear();
    this.pendingEvents.clear();
    return Promise.resolve();
  }
}
