/**
 * The rooms the user has left (SPEC §7): a one-off GET /sync with the
 * left-rooms filter and timeout 0. The filter is uploaded once per run and
 * reused; when the server forgets it, it is created again. Concurrent calls
 * share one request. The answer is untrusted: only object-valued rooms under
 * rooms.leave are returned, in a Map (room ids are data, not keys).
 */
import { createFilter } from "../api/filter";
import { leftRoomsFilter, syncLeftRooms } from "../api/sync";
import type { LeftRoom } from "../api/types/sync";
import type { HttpApi } from "../http/types";
import { isUnknownFilterError } from "./filters";

export interface LeftRoomsLoaderOptions {
  http: HttpApi;
  userId: string;
  /** Clock for the cache-buster; defaults to Date.now. */
  now?: () => number;
}

/** Fetches the left rooms on demand. */
export class LeftRoomsLoader {
  private filterId: string | undefined;
  private pending: Promise<Map<string, LeftRoom>> | undefined;

  constructor(private readonly options: LeftRoomsLoaderOptions) {}

  /** The rooms the user has left, keyed by room id. */
  load(): Promise<Map<string, LeftRoom>> {
    this.pending ??= this.fetch().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  private async fetch(): Promise<Map<string, LeftRoom>> {
    try {
      return await this.syncOnce();
    } catch (error) {
      if (!isUnknownFilterError(error)) throw error;
      this.filterId = undefined;
      return this.syncOnce();
    }
  }

  private async syncOnce(): Promise<Map<string, LeftRoom>> {
    const { http, userId } = this.options;
    if (this.filterId === undefined) {
      const created: unknown = await createFilter(http, userId, leftRoomsFilter());
      const id = (created as { filter_id?: unknown } | null)?.filter_id;
      // A server that answers oddly still gets the inline filter.
      this.filterId = typeof id === "string" && id !== "" ? id : undefined;
    }
    const response: unknown = await syncLeftRooms(http, {
      ...(this.filterId !== undefined ? { filterId: this.filterId } : {}),
      cacheBuster: (this.options.now ?? Date.now)(),
    });
    return leftRoomsOf(response);
  }
}

/** rooms.leave of an untrusted sync answer, as a Map. */
export function leftRoomsOf(response: unknown): Map<string, LeftRoom> {
  const out = new Map<string, LeftRoom>();
  const rooms = (response as { rooms?: unknown } | null)?.rooms;
  const leave = (rooms as { leave?: unknown } | null | undefined)?.leave;
  if (typeof leave !== "object" || leave === null || Array.isArray(leave)) return out;
  for (const [roomId, room] of Object.entries(leave as Record<string, unknown>)) {
    if (typeof room === "object" && room !== null && !Array.isArray(room)) out.set(roomId, room);
  }
  return out;
}
