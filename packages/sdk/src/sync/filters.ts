/**
 * The sync filter: what it asks for (SPEC §4, §6, §9) and its life on the
 * server. One filter is uploaded with POST /user/{userId}/filter, its id is
 * stored and reused; a stored id is checked once per run with GET filter,
 * and when the server says it is unknown or not found (SPEC §7: "Stored
 * filter unknown or not found: create a new one") a new one is created.
 * Guests use a plain empty filter with no lazy loading.
 */
import type { Logger } from "../util/logger";
import { createFilter, getFilter } from "../api/filter";
import type { Filter, RoomEventFilter } from "../api/types/filter";
import { MatrixError, ResponseFormatError } from "../http/errors";
import type { HttpApi } from "../http/types";
import type { FilterIdStore } from "./client-options";

/** SPEC §9: the default timeline limit of the initial sync. */
export const DEFAULT_INITIAL_SYNC_LIMIT = 30;

export interface SyncFilterOptions {
  /** Timeline events per room in the initial sync; defaults to 30. */
  initialSyncLimit?: number;
  /** Lazy-load room members (loaded out of band later); defaults to true, always false for guests. */
  lazyLoadMembers?: boolean;
  guest?: boolean;
  /**
   * Ask for per-thread unread counts (`unread_thread_notifications`, v1.4 or
   * MSC3773). Defaults to true; pass the server's answer (ServerFeatures):
   * a v1.2 server refuses the whole filter over the unknown field.
   */
  unreadThreadNotifications?: boolean;
}

/** Builds the sync filter for these options. Guests get `{}`. */
export function buildSyncFilter(options: SyncFilterOptions = {}): Filter {
  if (options.guest) return {};
  const limit = options.initialSyncLimit ?? DEFAULT_INITIAL_SYNC_LIMIT;
  const timeline: RoomEventFilter = { limit };
  if (options.unreadThreadNotifications ?? true) timeline.unread_thread_notifications = true;
  const state: RoomEventFilter = {};
  if (options.lazyLoadMembers ?? true) {
    // Both sections carry the flag: servers read it from either (the spec puts it on state).
    state.lazy_load_members = true;
    timeline.lazy_load_members = true;
  }
  return { room: { state, timeline } };
}

/**
 * Whether an error answer means the filter id is not known to the server:
 * 404 M_NOT_FOUND from GET filter, or 400 M_UNKNOWN / M_INVALID_PARAM that
 * mentions the filter (what servers answer a /sync with a stale id).
 */
export function isUnknownFilterError(error: unknown): boolean {
  if (!(error instanceof MatrixError)) return false;
  if (error.httpStatus === 404 && error.errcode === "M_NOT_FOUND") return true;
  return (
    error.httpStatus === 400 &&
    (error.errcode === "M_UNKNOWN" || error.errcode === "M_INVALID_PARAM") &&
    /filter/i.test(error.error)
  );
}

export interface SyncFilterManagerOptions {
  http: HttpApi;
  userId: string;
  /** The filter, or (once known) what it becomes for this server; see `resolveFilter`. */
  filter: Filter;
  /**
   * Builds the filter to upload from what the server supports (read once,
   * before the first upload). Rejecting (no answer from the server) fails
   * getFilterId like a network error.
   */
  resolveFilter?: () => Promise<Filter>;
  ids: FilterIdStore;
  logger?: Logger;
}

/** Hands out the id of the uploaded sync filter, creating or re-creating it when needed. */
export class SyncFilterManager {
  private validated: string | undefined;
  private pending: Promise<string> | undefined;
  private resolved: Filter | undefined;
  private readonly logger: Logger;

  constructor(private readonly options: SyncFilterManagerOptions) {
    this.logger = options.logger ?? console;
  }

  /** The filter definition this manager uploads (the server's version once resolved). */
  get filter(): Filter {
    return this.resolved ?? this.options.filter;
  }

  /**
   * The filter id to sync with: the stored one once the server confirmed it
   * this run, else a new one. Concurrent calls share one request. Network
   * errors reject (the sync loop counts them as a failed sync and retries).
   */
  getFilterId(): Promise<string> {
    if (this.validated !== undefined) return Promise.resolve(this.validated);
    this.pending ??= this.resolve().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  /** The server rejected the current id (e.g. /sync said so): forget it and create a new one. */
  async recreate(): Promise<string> {
    const stale = this.validated;
    this.validated = undefined;
    if (this.pending) await this.pending.catch(() => undefined);
    if (this.validated !== undefined && this.validated !== stale) return this.validated;
    this.validated = undefined;
    await this.options.ids.set(undefined);
    return this.getFilterId();
  }

  private async resolve(): Promise<string> {
    const { http, userId, ids } = this.options;
    this.resolved ??= this.options.resolveFilter ? await this.options.resolveFilter() : this.options.filter;
    const filter = this.resolved;
    // A stored id counts only for the same definition (a server that gained a feature gets a new filter).
    const stored = await ids.get(JSON.stringify(filter));
    if (stored !== undefined) {
      try {
        await getFilter(http, userId, stored);
        this.validated = stored;
        return stored;
      } catch (error) {
        if (!(error instanceof MatrixError && (error.httpStatus === 404 || isUnknownFilterError(error))))
          throw error;
        this.logger.info(`Stored filter ${stored} is unknown to the server; creating a new one`);
      }
    }
    const created: unknown = await createFilter(http, userId, filter);
    const id = (created as { filter_id?: unknown } | null)?.filter_id;
    if (typeof id !== "string" || id === "") {
      throw new ResponseFormatError("Filter creation answered without a filter_id", 200);
    }
    await ids.set(id, JSON.stringify(filter));
    this.validated = id;
    return id;
  }
}
