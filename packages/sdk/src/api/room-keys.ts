/**
 * Server-side room key backup (api/client-server/key_backup.yaml): backup
 * versions (create, read the current or a given one, update, delete) and the
 * backed-up keys at three levels: all rooms, one room, one session. Every
 * keys call names the backup version it applies to.
 */
import type { HttpApi } from "../http/types";
import { encodePath } from "../http/types";
import { ApiError } from "./errors";
import type {
  CreateKeyBackupVersionRequest,
  CreateKeyBackupVersionResponse,
  KeyBackupData,
  KeyBackupVersion,
  KeysBackupData,
  RoomKeyBackup,
  RoomKeysUpdateResponse,
  UpdateKeyBackupVersionRequest,
} from "./types/room-keys";

/** POST /room_keys/version: creates a new backup version. */
export function createKeyBackupVersion(
  http: HttpApi,
  body: CreateKeyBackupVersionRequest,
): Promise<CreateKeyBackupVersionResponse> {
  return http.request<CreateKeyBackupVersionResponse>({ method: "POST", path: "/room_keys/version", body });
}

/**
 * GET /room_keys/version[/{version}]: the current backup version, or the
 * given one. The server answers 404 M_NOT_FOUND when there is none.
 */
export function getKeyBackupVersion(http: HttpApi, version?: string): Promise<KeyBackupVersion> {
  return http.request<KeyBackupVersion>({
    method: "GET",
    path: version === undefined ? "/room_keys/version" : encodePath`/room_keys/version/${version}`,
  });
}

/** PUT /room_keys/version/{version}: replaces the auth data of a backup version. */
export function updateKeyBackupVersion(
  http: HttpApi,
  version: string,
  body: UpdateKeyBackupVersionRequest,
): Promise<Record<string, never>> {
  return http.request<Record<string, never>>({
    method: "PUT",
    path: encodePath`/room_keys/version/${version}`,
    body,
  });
}

/** DELETE /room_keys/version/{version}: deletes a backup version and its keys. */
export function deleteKeyBackupVersion(http: HttpApi, version: string): Promise<Record<string, never>> {
  return http.request<Record<string, never>>({
    method: "DELETE",
    path: encodePath`/room_keys/version/${version}`,
  });
}

/** The path of the keys of all rooms, one room or one session. */
function keysPath(roomId?: string, sessionId?: string): string {
  if (roomId === undefined) return "/room_keys/keys";
  if (sessionId === undefined) return encodePath`/room_keys/keys/${roomId}`;
  return encodePath`/room_keys/keys/${roomId}/${sessionId}`;
}

/** GET /room_keys/keys: every backed-up key of a version. */
export function getRoomKeys(http: HttpApi, version: string): Promise<KeysBackupData> {
  return http.request<KeysBackupData>({ method: "GET", path: keysPath(), query: { version } });
}

/** GET /room_keys/keys/{roomId}: the backed-up keys of one room. */
export function getRoomKeysForRoom(http: HttpApi, version: string, roomId: string): Promise<RoomKeyBackup> {
  return http.request<RoomKeyBackup>({ method: "GET", path: keysPath(roomId), query: { version } });
}

/** GET /room_keys/keys/{roomId}/{sessionId}: one backed-up session key. */
export function getRoomKeyForSession(
  http: HttpApi,
  version: string,
  roomId: string,
  sessionId: string,
): Promise<KeyBackupData> {
  return http.request<KeyBackupData>({
    method: "GET",
    path: keysPath(roomId, sessionId),
    query: { version },
  });
}

/** PUT /room_keys/keys: stores keys of many rooms. */
export function putRoomKeys(
  http: HttpApi,
  version: string,
  body: KeysBackupData,
): Promise<RoomKeysUpdateResponse> {
  return http.request<RoomKeysUpdateResponse>({ method: "PUT", path: keysPath(), query: { version }, body });
}

/** PUT /room_keys/keys/{roomId}: stores keys of one room. */
export function putRoomKeysForRoom(
  http: HttpApi,
  version: string,
  roomId: string,
  body: RoomKeyBackup,
): Promise<RoomKeysUpdateResponse> {
  return http.request<RoomKeysUpdateResponse>({
    method: "PUT",
    path: keysPath(roomId),
    query: { version },
    body,
  });
}

/** PUT /room_keys/keys/{roomId}/{sessionId}: stores one session key. */
export function putRoomKeyForSession(
  http: HttpApi,
  version: string,
  roomId: string,
  sessionId: string,
  body: KeyBackupData,
): Promise<RoomKeysUpdateResponse> {
  return http.request<RoomKeysUpdateResponse>({
    method: "PUT",
    path: keysPath(roomId, sessionId),
    query: { version },
    body,
  });
}

/**
 * DELETE /room_keys/keys[/{roomId}[/{sessionId}]]: deletes the backed-up
 * keys of a version: all of them, one room's, or one session's.
 */
export function deleteRoomKeys(
  http: HttpApi,
  version: string,
  roomId?: string,
  sessionId?: string,
): Promise<RoomKeysUpdateResponse> {
  if (roomId === undefined && sessionId !== undefined) {
    // A session id alone would silently widen the delete to every room.
    return Promise.reject(new ApiError("INVALID_ARGUMENT", "A session id needs its room id"));
  }
  return http.request<RoomKeysUpdateResponse>({
    method: "DELETE",
    path: keysPath(roomId, sessionId),
    query: { version },
  });
}
