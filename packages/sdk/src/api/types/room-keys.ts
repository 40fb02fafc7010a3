/**
 * Wire types of server-side room key backup (api/client-server/key_backup.yaml,
 * definitions/key_backup_data.yaml, definitions/room_key_backup.yaml).
 */

/** The backup algorithm of the spec; others may appear and are kept as strings. */
export type KeyBackupAlgorithm = "m.megolm_backup.v1.curve25519-aes-sha2" | (string & {});

/** Algorithm-specific data: for curve25519-aes-sha2, public_key and signatures. */
export interface KeyBackupAuthData {
  public_key?: string;
  signatures?: Record<string, Record<string, string>>;
  [key: string]: unknown;
}

/** POST /room_keys/version body. */
export interface CreateKeyBackupVersionRequest {
  algorithm: KeyBackupAlgorithm;
  auth_data: KeyBackupAuthData;
}

/** POST /room_keys/version */
export interface CreateKeyBackupVersionResponse {
  version: string;
}

/** GET /room_keys/version[/{version}] */
export interface KeyBackupVersion {
  algorithm: KeyBackupAlgorithm;
  auth_data: KeyBackupAuthData;
  count: number;
  etag: string;
  version: string;
}

/** PUT /room_keys/version/{version} body. */
export interface UpdateKeyBackupVersionRequest {
  algorithm: KeyBackupAlgorithm;
  auth_data: KeyBackupAuthData;
  /** Must match the path's version when given. */
  version?: string;
}

/** One backed-up session key. */
export interface KeyBackupData {
  first_message_index: number;
  forwarded_count: number;
  is_verified: boolean;
  /** Algorithm-dependent encrypted data (ephemeral, ciphertext, mac). */
  session_data: Record<string, unknown>;
}

/** The backed-up sessions of one room. */
export interface RoomKeyBackup {
  /** Session id to its key data. */
  sessions: Record<string, KeyBackupData>;
}

/** All backed-up keys: room id to its sessions. */
export interface KeysBackupData {
  rooms: Record<string, RoomKeyBackup>;
}

/** The answer of every write or delete of backed-up keys. */
export interface RoomKeysUpdateResponse {
  etag: string;
  count: number;
}
