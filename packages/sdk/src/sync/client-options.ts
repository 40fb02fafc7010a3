/**
 * The client options stored beside the cache (the Store's client_options
 * record): the settings that shape what a sync returns, so a start with
 * different settings knows the cached sync no longer fits and discards it.
 * The same record carries the id of the uploaded sync filter, which is not
 * an option (it may change while the options stay the same) and is ignored
 * when comparing.
 */
import type { JsonObject, Store } from "../store/Store";

/** Bumped when the meaning of the stored options changes; a mismatch discards the cache. */
export const CLIENT_OPTIONS_VERSION = 1;

/** The key of the filter id inside the stored record. */
const FILTER_ID_KEY = "filterId";

/** The settings that affect the cached sync. */
export interface CacheOptions {
  userId: string;
  guest: boolean;
  lazyLoadMembers: boolean;
  initialSyncLimit: number;
  /** The sync filter definition, as JSON (a changed filter changes what the cache holds). */
  filter: string;
}

/** The record written to the store: the options, their version and the filter id if known. */
export function toStoredOptions(options: CacheOptions, filterId?: string): JsonObject {
  const record: JsonObject = { version: CLIENT_OPTIONS_VERSION, ...options };
  if (filterId !== undefined) record[FILTER_ID_KEY] = filterId;
  return record;
}

/**
 * Whether a stored record was written with the same cache options. Anything
 * missing or of the wrong type counts as different: the record is untrusted
 * (an older build, a damaged database).
 */
export function isCompatible(stored: JsonObject, wanted: CacheOptions): boolean {
  if (stored["version"] !== CLIENT_OPTIONS_VERSION) return false;
  return (Object.keys(wanted) as Array<keyof CacheOptions>).every((key) =>
    Object.is(stored[key], wanted[key]),
  );
}

/** The filter id kept in a stored record, if it is a usable string. */
export function storedFilterId(stored: JsonObject | null): string | undefined {
  const id = stored?.[FILTER_ID_KEY];
  return typeof id === "string" && id !== "" ? id : undefined;
}

/** Where the filter manager keeps the filter id between runs. */
export interface FilterIdStore {
  get(): Promise<string | undefined>;
  set(filterId: string | undefined): Promise<void>;
}

/** A FilterIdStore over the Store's client options record: the options stay, only the id changes. */
export function clientOptionsFilterIdStore(store: Store, options: CacheOptions): FilterIdStore {
  return {
    get: async () => storedFilterId(await store.getClientOptions()),
    set: (filterId) => store.storeClientOptions(toStoredOptions(options, filterId)),
  };
}
