/**
 * A Store that keeps everything in memory: the default for guests and tests,
 * and what a persistent store degrades to when storage fails.
 */
import type { JsonObject, Store, StoredPendingEvent, StoredSync, StoredUser, ToDeviceBatch } from "./Store";

/**
 * Deep copy of a JSON value, so callers never share mutable state with the
 * store. Immutability contract: a frozen object or array is taken as deeply
 * frozen and shared, not copied (the sync pipeline deep-freezes every
 * validated event and the accumulator's snapshot documents, so storing a
 * snapshot copies only its mutable wrappers, not every event). Anything
 * else is copied as JSON would: undefined members and functions dropped,
 * non-finite numbers become null, `__proto__` stays an own key.
 */
export function cloneJson<T>(value: T): T {
  return copyJson(value) as T;
}

function copyJson(value: unknown): unknown {
  if (typeof value !== "object" || value === null) {
    return typeof value === "number" && !Number.isFinite(value) ? null : value;
  }
  if (Object.isFrozen(value)) return value;
  if (Array.isArray(value)) {
    const items: unknown[] = [];
    // Indexed, so holes become null as in JSON.
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      items.push(isSkipped(item) ? null : copyJson(item));
    }
    return items;
  }
  // Dates and other toJSON holders: let JSON decide, as before.
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return JSON.parse(JSON.stringify(value));
  const out: Record<string, unknown> = {};
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const item = (value as Record<string, unknown>)[key];
    if (isSkipped(item)) continue;
    const copy = copyJson(item);
    // A `__proto__` key is data: defined, never assigned (that would set the prototype).
    if (key === "__proto__") {
      Object.defineProperty(out, key, { value: copy, writable: true, enumerable: true, configurable: true });
    } else {
      out[key] = copy;
    }
  }
  return out;
}

/** What JSON.stringify leaves out of an object (and turns into null in an array). */
function isSkipped(value: unknown): boolean {
  return value === undefined || typeof value === "function" || typeof value === "symbol";
}

export class MemoryStore implements Store {
  readonly kind = "memory" as const;
  private sync: StoredSync | null = null;
  private roomList: readonly JsonObject[] = [];
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

  getRoomListSummary(part = 0): Promise<JsonObject | null> {
    return Promise.resolve(this.roomList[part] ?? null);
  }

  setRoomListSummary(parts: readonly JsonObject[]): void {
    // The summary cache builds fresh records each time and never mutates them: kept as given.
    this.roomList = [...parts];
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
    this.roomList = [];
    this.accountData.clear();
    this.users.clear();
    this.oob.clear();
    this.options = null;
    this.toDevice.clear();
    this.pendingEvents.clear();
    return Promise.resolve();
  }
}
