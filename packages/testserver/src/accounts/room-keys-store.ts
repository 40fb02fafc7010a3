/**
 * Server-side key backup (room_keys): backup versions and, per version, the
 * session keys by room and session, with a count and an etag that changes
 * whenever the keys change.
 */
import type { JsonObject } from "../core/events";

export interface BackupVersion {
  version: string;
  algorithm: string;
  auth_data: JsonObject;
  etag: number;
  deleted: boolean;
  /** roomId -> sessionId -> KeyBackupData. */
  rooms: Map<string, Map<string, JsonObject>>;
}

export class RoomKeyStore {
  /** userId -> versions, oldest first. */
  private readonly backups = new Map<string, BackupVersion[]>();
  private nextVersion = 1;

  create(userId: string, algorithm: string, authData: JsonObject): string {
    const version = String(this.nextVersion++);
    const list = this.backups.get(userId) ?? [];
    list.push({ version, algorithm, auth_data: authData, etag: 0, deleted: false, rooms: new Map() });
    this.backups.set(userId, list);
    return version;
  }

  /** The newest live version, or a given one. */
  get(userId: string, version?: string): BackupVersion | undefined {
    const list = (this.backups.get(userId) ?? []).filter((b) => !b.deleted);
    if (version === undefined) return list[list.length - 1];
    return list.find((b) => b.version === version);
  }

  count(b: BackupVersion): number {
    let n = 0;
    for (const sessions of b.rooms.values()) n += sessions.size;
    return n;
  }

  /**
   * Stores a session key unless the one already stored is better: verified
   * beats unverified, then a lower first_message_index, then a lower
   * forwarded_count (the spec's rules).
   */
  put(b: BackupVersion, roomId: string, sessionId: string, data: JsonObject): void {
    let sessions = b.rooms.get(roomId);
    if (!sessions) {
      sessions = new Map();
      b.rooms.set(roomId, sessions);
    }
    const old = sessions.get(sessionId);
    if (old && !isBetter(data, old)) return;
    sessions.set(sessionId, data);
    b.etag += 1;
  }

  /** Deletes keys: all (no room), a room's, or one session's. */
  delete(b: BackupVersion, roomId?: string, sessionId?: string): void {
    if (roomId === undefined) {
      if (b.rooms.size > 0) b.etag += 1;
      b.rooms.clear();
      return;
    }
    const sessions = b.rooms.get(roomId);
    if (!sessions) return;
    if (sessionId === undefined) {
      b.rooms.delete(roomId);
      b.etag += 1;
    } else if (sessions.delete(sessionId)) {
      b.etag += 1;
      if (sessions.size === 0) b.rooms.delete(roomId);
    }
  }
}

function isBetter(candidate: JsonObject, existing: JsonObject): boolean {
  const verified = (d: JsonObject): boolean => d["is_verified"] === true;
  if (verified(candidate) !== verified(existing)) return verified(candidate);
  const num = (d: JsonObject, k: string): number =>
    typeof d[k] === "number" ? d[k] : Number.MAX_SAFE_INTEGER;
  const fmi = num(candidate, "first_message_index") - num(existing, "first_message_index");
  if (fmi !== 0) return fmi < 0;
  return num(candidate, "forwarded_count") < num(existing, "forwarded_count");
}
