/**
 * The room directory: public room lists (GET and POST /publicRooms), room
 * aliases (/directory/room/{alias}) and a room's visibility in the directory
 * (/directory/list/room/{roomId}).
 */
import type { HttpApi } from "../http/types";
import { encodePath } from "../http/types";
import type {
  DirectoryVisibility,
  PublicRoomsParams,
  PublicRoomsResponse,
  PublicRoomsSearch,
  ResolveAliasResponse,
} from "./types/rooms";

/** GET /publicRooms: a page of the public room list, of this server or `server`. */
export function publicRooms(http: HttpApi, params: PublicRoomsParams = {}): Promise<PublicRoomsResponse> {
  return http.request<PublicRoomsResponse>({
    method: "GET",
    path: "/publicRooms",
    query: { limit: params.limit, since: params.since, server: params.server },
  });
}

/** POST /publicRooms: search the public room list with a filter, optionally of a third-party network. */
export function searchPublicRooms(
  http: HttpApi,
  search: PublicRoomsSearch = {},
): Promise<PublicRoomsResponse> {
  const { server, ...body } = search;
  return http.request<PublicRoomsResponse>({
    method: "POST",
    path: "/publicRooms",
    ...(server !== undefined ? { query: { server } } : {}),
    body,
  });
}

/** GET /directory/room/{roomAlias}: resolve an alias to a room id. */
export function resolveAlias(http: HttpApi, alias: string): Promise<ResolveAliasResponse> {
  return http.request<ResolveAliasResponse>({ method: "GET", path: encodePath`/directory/room/${alias}` });
}

/** PUT /directory/room/{roomAlias}: point an alias at a room. */
export function createAlias(http: HttpApi, alias: string, roomId: string): Promise<Record<string, never>> {
  return http.request<Record<string, never>>({
    method: "PUT",
    path: encodePath`/directory/room/${alias}`,
    body: { room_id: roomId },
  });
}

/** DELETE /directory/room/{roomAlias}. */
export function deleteAlias(http: HttpApi, alias: string): Promise<Record<string, never>> {
  return http.request<Record<string, never>>({
    method: "DELETE",
    path: encodePath`/directory/room/${alias}`,
  });
}

/** GET /directory/list/room/{roomId}: whether the room is listed in the public directory. */
export function getRoomVisibility(
  http: HttpApi,
  roomId: string,
): Promise<{ visibility: DirectoryVisibility }> {
  return http.request<{ visibility: DirectoryVisibility }>({
    method: "GET",
    path: encodePath`/directory/list/room/${roomId}`,
  });
}

/** PUT /directory/list/room/{roomId}: list or unlist the room in the public directory. */
export function setRoomVisibility(
  http: HttpApi,
  roomId: string,
  visibility: DirectoryVisibility,
): Promise<Record<string, never>> {
  return http.request<Record<string, never>>({
    method: "PUT",
    path: encodePath`/directory/list/room/${roomId}`,
    body: { visibility },
  });
}
