/**
 * GET /sync (api/client-server/sync.yaml): the long-poll call the sync loop
 * drives, and the left-rooms sync. Builds the query from typed parameters:
 * filter by id or inline JSON, the MSC4222 state-after flag under its stable
 * or unstable name, and a cache-buster on an initial sync. No state here: the
 * sync loop owns tokens, timeouts and retries.
 */
import type { HttpApi } from "../http/types";
import type { Filter, RoomEventFilter } from "./types/filter";
import type { JoinedRoom, LeftRoom, StateEventBatch, SyncParams, SyncResponse } from "./types/sync";
import { SYNC_STATE_AFTER, SYNC_USE_STATE_AFTER } from "./unstable";

/** The query parameter a sync without `since` carries so no cache answers it. */
export const CACHE_BUSTER_PARAM = "_cacheBuster";

/** Encodes a filter for a query: an id as is, an object as JSON. */
export function encodeFilter(filter: string | Filter | RoomEventFilter): string {
  return typeof filter === "string" ? filter : JSON.stringify(filter);
}

/** Builds the query of GET /sync from typed parameters. */
export function buildSyncQuery(params: SyncParams): Record<string, string | number | boolean> {
  const query: Record<string, string | number | boolean> = {};
  if (params.filter !== undefined) query.filter = encodeFilter(params.filter);
  if (params.since !== undefined) {
    query.since = params.since;
  } else if (params.cacheBuster !== false) {
    query[CACHE_BUSTER_PARAM] = params.cacheBuster ?? Date.now();
  }
  if (params.timeout !== undefined) query.timeout = params.timeout;
  if (params.set_presence !== undefined) query.set_presence = params.set_presence;
  if (params.full_state !== undefined) query.full_state = params.full_state;
  if (params.useStateAfter !== undefined) {
    const name =
      params.useStateAfter === "stable" ? SYNC_USE_STATE_AFTER.stable : SYNC_USE_STATE_AFTER.unstable;
    if (name !== null) query[name] = true;
  }
  return query;
}

/** GET /sync: one sync request. */
export function sync(http: HttpApi, params: SyncParams = {}): Promise<SyncResponse> {
  return http.request<SyncResponse>({
    method: "GET",
    path: "/sync",
    query: buildSyncQuery(params),
    ...(params.requestTimeoutMs !== undefined ? { timeoutMs: params.requestTimeoutMs } : {}),
    ...(params.signal ? { signal: params.signal } : {}),
  });
}

/**
 * The filter of the left-rooms sync: only rooms the user left, one timeline
 * event each (enough to place them), nothing else.
 */
export function leftRoomsFilter(): Filter {
  return {
    room: {
      include_leave: true,
      timeline: { limit: 1 },
    },
  };
}

/**
 * GET /sync for the rooms the user has left: the left-rooms filter (a stored
 * filter id, or the inline filter) with timeout 0, so the server answers at
 * once.
 */
export function syncLeftRooms(
  http: HttpApi,
  options: { filterId?: string; cacheBuster?: number | false; signal?: AbortSignal } = {},
): Promise<SyncResponse> {
  return sync(http, {
    filter: options.filterId ?? leftRoomsFilter(),
    timeout: 0,
    ...(options.cacheBuster !== undefined ? { cacheBuster: options.cacheBuster } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

/**
 * Which name to ask for `state_after` under: the stable one when the server
 * advertises Matrix 1.16 (where MSC4222 landed), the unstable one when it
 * advertises the MSC, otherwise undefined (do not ask).
 */
export function stateAfterFlavour(versions: {
  versions?: readonly string[];
  unstable_features?: Readonly<Record<string, boolean>>;
}): "stable" | "unstable" | undefined {
  if (versions.versions?.some((v) => atLeastVersion(v, 1, 16))) return "stable";
  if (versions.unstable_features?.["org.matrix.msc4222"] === true) return "unstable";
  return undefined;
}

function atLeastVersion(version: string, major: number, minor: number): boolean {
  const match = /^v(\d+)\.(\d+)$/.exec(version);
  if (!match) return false;
  const ma = Number(match[1]);
  const mi = Number(match[2]);
  return ma > major || (ma === major && mi >= minor);
}

/**
 * A room's `state_after` under either name, or undefined when the server sent
 * none (then `state` applies, as the spec says).
 */
export function roomStateAfter(room: JoinedRoom | LeftRoom): StateEventBatch | undefined {
  const unstableKey = SYNC_STATE_AFTER.unstable as "org.matrix.msc4222.state_after";
  return room.state_after ?? room[unstableKey];
}
