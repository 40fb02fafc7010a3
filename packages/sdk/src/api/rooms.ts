/**
 * Room-level calls that are not about one event or one member: create a
 * room, list joined rooms, upgrade, room summary (MSC3266), space hierarchy,
 * aliases and the two report calls. Summary and hierarchy fall back to their
 * unstable prefixes on servers that do not know the stable endpoint.
 */
import type { HttpApi } from "../http/types";
import { Prefix, encodePath } from "../http/types";
import { ApiError } from "./errors";
import type {
  CreateRoomRequest,
  CreateRoomResponse,
  HierarchyParams,
  HierarchyResponse,
  JoinedRoomsResponse,
  ReportEventRequest,
  RoomAliasesResponse,
  RoomSummaryResponse,
  UpgradeRoomRequest,
  UpgradeRoomResponse,
} from "./types/rooms";
import { ROOM_SUMMARY_PREFIX, SPACE_HIERARCHY_PREFIX } from "./unstable";

/** The message thrown when upgradeRoom is called without a version. */
export const UPGRADE_NEEDS_VERSION = "A room upgrade needs a version";

/** POST /createRoom. */
export function createRoom(http: HttpApi, body: CreateRoomRequest): Promise<CreateRoomResponse> {
  return http.request<CreateRoomResponse>({ method: "POST", path: "/createRoom", body });
}

/** GET /joined_rooms. */
export function joinedRooms(http: HttpApi): Promise<JoinedRoomsResponse> {
  return http.request<JoinedRoomsResponse>({ method: "GET", path: "/joined_rooms" });
}

/**
 * POST /rooms/{roomId}/upgrade. Throws ApiError 'A room upgrade needs a
 * version' before any request when `new_version` is missing or empty.
 */
export function upgradeRoom(
  http: HttpApi,
  roomId: string,
  body: Partial<UpgradeRoomRequest>,
): Promise<UpgradeRoomResponse> {
  const newVersion = body.new_version;
  if (typeof newVersion !== "string" || newVersion === "") {
    return Promise.reject(new ApiError("INVALID_ARGUMENT", UPGRADE_NEEDS_VERSION));
  }
  return http.request<UpgradeRoomResponse>({
    method: "POST",
    path: encodePath`/rooms/${roomId}/upgrade`,
    body: { ...body, new_version: newVersion },
  });
}

/**
 * GET /_matrix/client/v1/room_summary/{roomIdOrAlias} (MSC3266), falling back
 * to /_matrix/client/unstable/im.nheko.summary/rooms/{roomIdOrAlias}/summary.
 * `via` names servers to ask when this one is not in the room.
 */
export function roomSummary(
  http: HttpApi,
  roomIdOrAlias: string,
  options: { via?: readonly string[] } = {},
): Promise<RoomSummaryResponse> {
  return http.request<RoomSummaryResponse>({
    method: "GET",
    prefix: Prefix.ClientV1,
    path: encodePath`/room_summary/${roomIdOrAlias}`,
    fallback: [{ prefix: ROOM_SUMMARY_PREFIX.unstable, path: encodePath`/rooms/${roomIdOrAlias}/summary` }],
    ...(options.via && options.via.length > 0 ? { query: { via: options.via } } : {}),
  });
}

/** GET /_matrix/client/v1/rooms/{roomId}/hierarchy, falling back to the MSC2946 prefix. */
export function hierarchy(
  http: HttpApi,
  roomId: string,
  params: HierarchyParams = {},
): Promise<HierarchyResponse> {
  return http.request<HierarchyResponse>({
    method: "GET",
    prefix: Prefix.ClientV1,
    path: encodePath`/rooms/${roomId}/hierarchy`,
    fallback: [{ prefix: SPACE_HIERARCHY_PREFIX.unstable }],
    query: {
      suggested_only: params.suggested_only,
      limit: params.limit,
      max_depth: params.max_depth,
      from: params.from,
    },
  });
}

/** GET /rooms/{roomId}/aliases: the local aliases of a room. */
export function roomAliases(http: HttpApi, roomId: string): Promise<RoomAliasesResponse> {
  return http.request<RoomAliasesResponse>({ method: "GET", path: encodePath`/rooms/${roomId}/aliases` });
}

/** POST /rooms/{roomId}/report/{eventId}: report one event to the server admins. */
export function reportEvent(
  http: HttpApi,
  roomId: string,
  eventId: string,
  body: ReportEventRequest = {},
): Promise<Record<string, never>> {
  return http.request<Record<string, never>>({
    method: "POST",
    path: encodePath`/rooms/${roomId}/report/${eventId}`,
    body,
  });
}

/** POST /rooms/{roomId}/report: report a whole room to the server admins. The reason is required but may be blank. */
export function reportRoom(http: HttpApi, roomId: string, reason = ""): Promise<Record<string, never>> {
  return http.request<Record<string, never>>({
    method: "POST",
    path: encodePath`/rooms/${roomId}/report`,
    body: { reason },
  });
}
