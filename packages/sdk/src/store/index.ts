/**
 * The local store: interface, backends and the degrading wrapper.
 */
export type { JsonObject, Store, StoredPendingEvent, StoredSync, StoredUser, ToDeviceBatch } from "./Store";
export { SAVE_INTERVAL_MS } from "./Store";
export { MemoryStore } from "./MemoryStore";
export { FallbackStore } from "./FallbackStore";
export { STORE_DEGRADED_MESSAGE, StoreError } from "./errors";
export type { StoreErrorCode } from "./errors";
export { IndexedDbStore } from "./indexeddb/IndexedDbStore";
export type { IndexedDbStoreOptions } from "./indexeddb/IndexedDbStore";
export { SCHEMA_VERSION, OBJECT_STORES, EXTENSION_STORES } from "./indexeddb/schema";
