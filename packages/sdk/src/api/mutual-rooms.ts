/**
 * Rooms the user shares with another user (MSC2666). The server says which
 * flavour it serves in the versions document: the stable endpoint
 * (GET /_matrix/client/v1/mutual_rooms, `from`/`next_batch`) behind the
 * ".stable" flag, or the unstable one (/user/mutual_rooms,
 * `batch_token`/`next_batch_token`). Without either the call is refused
 * locally: 'Server does not support the Mutual Rooms API'.
 */
import type { HttpApi } from "../http/types";
import { Prefix } from "../http/types";
import { ApiError } from "./errors";
import type { MutualRoomsResponse, UnstableMutualRoomsResponse } from "./types/mutual-rooms";
import type { VersionsResponse } from "./types/server";
import { MUTUAL_ROOMS_ENDPOINT, MUTUAL_ROOMS_FEATURE } from "./unstable";
import { hasUnstableFeature } from "./versions";

/** Which mutual rooms endpoint the server serves, or null when none. */
export type MutualRoomsSupport = "stable" | "unstable" | null;

/** Reads mutual rooms support from the versions document, preferring the stable endpoint. */
export function mutualRoomsSupport(versions: VersionsResponse): MutualRoomsSupport {
  const stable = MUTUAL_ROOMS_FEATURE.stable;
  if (stable !== null && hasUnstableFeature(versions, stable)) return "stable";
  if (hasUnstableFeature(versions, MUTUAL_ROOMS_FEATURE.unstable)) return "unstable";
  return null;
}

/** One page of mutual rooms, in the same shape whichever endpoint answered. */
export interface MutualRoomsPage {
  joined: string[];
  /** The token of the next page; absent on the last page. */
  nextBatch?: string;
}

/**
 * GET mutual_rooms: one page of the rooms the caller and `userId` are both
 * joined to. Throws an ApiError (UNSUPPORTED_BY_SERVER) without server support.
 */
export async function getMutualRooms(
  http: HttpApi,
  versions: VersionsResponse,
  userId: string,
  from?: string,
): Promise<MutualRoomsPage> {
  const support = mutualRoomsSupport(versions);
  if (support === null) {
    throw new ApiError("UNSUPPORTED_BY_SERVER", "Server does not support the Mutual Rooms API");
  }
  if (support === "stable") {
    const res = await http.request<MutualRoomsResponse>({
      method: "GET",
      prefix: Prefix.None,
      path: MUTUAL_ROOMS_ENDPOINT.stable ?? "/_matrix/client/v1/mutual_rooms",
      query: { user_id: userId, from },
    });
    return pageOf(res.joined, res.next_batch);
  }
  const res = await http.request<UnstableMutualRoomsResponse>({
    method: "GET",
    prefix: Prefix.None,
    path: MUTUAL_ROOMS_ENDPOINT.unstable,
    query: { user_id: userId, batch_token: from },
  });
  return pageOf(res.joined, res.next_batch_token);
}

/** Normalises an answer, dropping anything that is not a room id string. */
function pageOf(joined: unknown, nextBatch: unknown): MutualRoomsPage {
  const rooms = Array.isArray(joined) ? joined.filter((r): r is string => typeof r === "string") : [];
  return typeof nextBatch === "string" && nextBatch !== "" ? { joined: rooms, nextBatch } : { joined: rooms };
}

/**
 * Every room shared with `userId`, following pagination to the end (at most
 * `maxPages` pages, so a server that keeps handing out tokens cannot loop us).
 */
export async function getAllMutualRooms(
  http: HttpApi,
  versions: VersionsResponse,
  userId: string,
  maxPages = 100,
): Promise<string[]> {
  const rooms: string[] = [];
  let from: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const res = await getMutualRooms(http, versions, userId, from);
    rooms.push(...res.joined);
    if (res.nextBatch === undefined || res.nextBatch === from) break;
    from = res.nextBatch;
  }
  return [...new Set(rooms)];
}
