/**
 * The client options stored beside the cache (the Store's client_options
 * record): the settings that shape what a sync returns, so a start with
 * different settings knows the cached sync no longer fits and discards it.
 * The same record carries the id of the uploaded sync filter, which is not
 * an option (it may change while the options stay the same) and is ignored
 * when comparing.
 */
import type { JsonObject, Store, ToDeviceBatch } from "../store/Store";

/** Bumped when the meaning of the stored options changes; a mismatch discards the cache. */
export const CLIENT_OPTIONS_VERSION = 1;

/** The key of the filter id inside the stored record. */
const FILTER_ID_KEY = "filterId";
/** The key of the definition (JSON) the filter id was uploaded for, when it differs from `filter`. */
const FILTER_FOR_KEY = "filterFor";

/** The settings that affect the cached sync. */
export interface CacheOptions {
  userId: string;
  guest: boolean;
  lazyLoadMembers: boolean;
  initialSyncLimit: number;
  /** The sync filter definition, as JSON (a changed filter changes what the cache holds). */
  filter: string;
}

/**
 * The record written to the store: the options, their version and the
 * filter id if known, with the definition it was uploaded for when that is
 * not `options.filter` (the server lacked a field of it).
 */
export function toStoredOptions(options: CacheOptions, filterId?: string, filterFor?: string): JsonObject {
  const record: JsonObject = { version: CLIENT_OPTIONS_VERSION, ...options };
  if (filterId !== undefined) record[FILTER_ID_KEY] = filterId;
  if (filterId !== undefined && filterFor !== undefined && filterFor !== options.filter)
    record[FILTER_FOR_KEY] = filterFor;
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

/** The definition a stored filter id was uploaded for, when recorded apart from `filter`. */
export function storedFilterFor(stored: JsonObject | null): string | undefined {
  const filterFor = stored?.[FILTER_FOR_KEY];
  return typeof filterFor === "string" ? filterFor : undefined;
}

/** Where the filter manager keeps the filter id between runs, with the definition it stands for. */
export interface FilterIdStore {
  /** The stored id if it was uploaded for this definition (JSON); without one, any stored id. */
  get(filterFor?: string): Promise<string | undefined>;
  set(filterId: string | undefined, filterFor?: string): Promise<void>;
}

/** A FilterIdStore over the Store's client options record: the options stay, only the id changes. */
export function clientOptionsFilterIdStore(store: Store, options: CacheOptions): FilterIdStore {
  return {
    get: async (filterFor) => {
      const stored = await store.getClientOptions();
      const uploadedFor = storedFilterFor(stored) ?? options.filter;
      if (filterFor !== undefined && filterFor !== uploadedFor) return undefined;
      return storedFilterId(stored);
    },
    set: (filterId, filterFor) => store.storeClientOptions(toStoredOptions(options, filterId, filterFor)),
  };
}

/**
 * Discards the cache when it was written under other options (or under
 * none: its provenance is unknown), then records this run's options,
 * keeping the filter id (and the definition it stands for) when the options
 * match. Returns whether it discarded the cache.
 */
export async function reconcileClientOptions(
  store: Store,
  options: CacheOptions,
  hooks: { logger: { info(message: string): void }; onDiscard: () => void },
): Promise<boolean> {
  const stored = await store.getClientOptions();
  const compatible = stored !== null ? isCompatible(stored, options) : (await store.getSync()) === null;
  if (!compatible) {
    hooks.logger.info("Stored client options differ from this run's; discarding the cached sync");
    await discardCache(store);
    hooks.onDiscard();
  }
  const filterId = compatible ? storedFilterId(stored) : undefined;
  const filterFor = compatible ? storedFilterFor(stored) : undefined;
  await store.storeClientOptions(toStoredOptions(options, filterId, filterFor));
  return !compatible;
}

/**
 * Deletes the cache but keeps the to-device queue: queued batches are
 * messages still to send (room keys), not cached server data.
 */
async function discardCache(store: Store): Promise<void> {
  const queued: ToDeviceBatch[] = [];
  for (let batch = await store.nextToDevice(); batch; batch = await store.nextToDevice()) {
    if (batch.id === undefined) break;
    queued.push(batch);
    await store.removeToDevice(batch.id);
  }
  await store.deleteAllData();
  if (queued.length > 0) await store.queueToDevice(queued.map(({ id: _id, ...batch }) => batch));
}
