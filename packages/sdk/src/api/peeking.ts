/**
 * Peeking into rooms the user has not joined: the room's initial sync
 * (room_initial_sync.yaml) to load it, then GET /events (peeking_events.yaml)
 * to follow it. The peeking loop (retry after 30 s on failure, 'Peeking
 * aborted') lives in the sync layer; these are the two requests.
 */
import type { HttpApi } from "../http/types";
import { encodePath } from "../http/types";
import type { RoomInitialSyncResponse } from "./types/rooms";
import type { PeekEventsParams, PeekEventsResponse } from "./types/sync";

/** Long-poll time of GET /events in ms, as SPEC §7 gives it. */
export const PEEK_EVENTS_TIMEOUT_MS = 30_000;

/** GET /rooms/{roomId}/initialSync: a snapshot of a room, for peeking. */
export function roomInitialSync(
  http: HttpApi,
  roomId: string,
  options: { signal?: AbortSignal } = {},
): Promise<RoomInitialSyncResponse> {
  return http.request<RoomInitialSyncResponse>({
    method: "GET",
    path: encodePath`/rooms/${roomId}/initialSync`,
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

/** GET /events: new events in a peeked room since `from`. */
export function peekEvents(http: HttpApi, params: PeekEventsParams): Promise<PeekEventsResponse> {
  return http.request<PeekEventsResponse>({
    method: "GET",
    path: "/events",
    query: {
      room_id: params.roomId,
      timeout: params.timeout ?? PEEK_EVENTS_TIMEOUT_MS,
      from: params.from,
    },
    ...(params.requestTimeoutMs !== undefined ? { timeoutMs: params.requestTimeoutMs } : {}),
    ...(params.signal ? { signal: params.signal } : {}),
  });
}
