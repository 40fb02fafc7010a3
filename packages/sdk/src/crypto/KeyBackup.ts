/**
 * Server-side key backup (m.megolm_backup.v1.curve25519-aes-sha2) over the
 * engine: create a backup version with a fresh key (its auth data signed by
 * this device), upload the room keys not yet backed up, restore all keys of
 * a version with the recovery key (waiting events then decrypt in place
 * through the late-key path), and delete keys (DELETE /room_keys/keys with
 * version) or the whole version. Secret storage of the key is not here.
 */
import type { BackupDecryptionKey, OlmMachine, RoomId } from "@matrix-org/matrix-sdk-crypto-wasm";
import {
  createKeyBackupVersion,
  deleteKeyBackupVersion,
  deleteRoomKeys,
  getKeyBackupVersion,
  getRoomKeys,
} from "../api/room-keys";
import type { KeyBackupAuthData } from "../api/types/room-keys";
import type { HttpApi } from "../http/types";
import { CryptoError } from "./errors";
import { roomIdOrUndefined } from "./ids";
import type { Engine } from "./load";
import type { OutgoingRequests } from "./OutgoingRequests";
import { base64ToBytes, bytesToBase64, decodeRecoveryKey, encodeRecoveryKey } from "./recovery-key";

/** The spec's backup algorithm. */
export const BACKUP_ALGORITHM = "m.megolm_backup.v1.curve25519-aes-sha2";

export interface KeyBackupDeps {
  engine: Engine;
  machine: OlmMachine;
  outgoing: OutgoingRequests;
  http: HttpApi;
}

/** A created backup: its version and the recovery key to keep safe. */
export interface CreatedBackup {
  version: string;
  recoveryKey: string;
}

/** Room key counts: how many exist locally and how many are backed up. */
export interface BackupCounts {
  total: number;
  backedUp: number;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Key backup for one device. */
export class KeyBackup {
  constructor(private readonly deps: KeyBackupDeps) {}

  /** Creates a new backup version with a fresh key and starts backing up to it. */
  async create(): Promise<CreatedBackup> {
    const { engine, machine, http } = this.deps;
    const key = engine.BackupDecryptionKey.createRandomKey();
    try {
      const publicKey = key.megolmV1PublicKey.publicKeyBase64;
      const unsigned = { public_key: publicKey };
      // Canonical JSON of a one-key object is plain JSON.
      const signatures = await machine.sign(JSON.stringify(unsigned));
      const authData: KeyBackupAuthData = {
        ...unsigned,
        signatures: JSON.parse(signatures.asJSON()) as Record<string, Record<string, string>>,
      };
      signatures.free();
      const { version } = await createKeyBackupVersion(http, {
        algorithm: BACKUP_ALGORITHM,
        auth_data: authData,
      });
      const recoveryKey = encodeRecoveryKey(base64ToBytes(key.toBase64()));
      await this.enableWith(key, version);
      return { version, recoveryKey };
    } finally {
      key.free();
    }
  }

  /** Backs up to an existing version whose key the user gave back (recovery key). */
  async enable(version: string, recoveryKey: string): Promise<void> {
    const key = this.keyFrom(recoveryKey);
    try {
      const info = await getKeyBackupVersion(this.deps.http, version);
      if (info.auth_data.public_key !== key.megolmV1PublicKey.publicKeyBase64) {
        throw new CryptoError("engine_failure", "The recovery key does not match the backup");
      }
      await this.enableWith(key, version);
    } finally {
      key.free();
    }
  }

  private async enableWith(key: BackupDecryptionKey, version: string): Promise<void> {
    const { machine } = this.deps;
    await machine.saveBackupDecryptionKey(key, version);
    await machine.enableBackupV1(key.megolmV1PublicKey.publicKeyBase64, version);
  }

  private keyFrom(recoveryKey: string): BackupDecryptionKey {
    return this.deps.engine.BackupDecryptionKey.fromBase64(bytesToBase64(decodeRecoveryKey(recoveryKey)));
  }

  /** Uploads every room key not yet in the backup; returns the counts after. */
  async upload(): Promise<BackupCounts> {
    const { machine, outgoing } = this.deps;
    for (;;) {
      const request = await machine.backupRoomKeys();
      if (!request) break;
      try {
        await outgoing.send(request);
      } catch (error) {
        throw new CryptoError("request_failed", "Uploading room keys to the backup failed", { cause: error });
      }
    }
    return this.counts();
  }

  /** How many room keys exist and how many are backed up. */
  async counts(): Promise<BackupCounts> {
    const counts = await this.deps.machine.roomKeyCounts();
    try {
      return { total: counts.total, backedUp: counts.backedUp };
    } finally {
      counts.free();
    }
  }

  /**
   * Downloads and imports every key of a version (the latest when omitted)
   * with the recovery key. Undecryptable entries are skipped. Returns how
   * many keys the engine took as new or better.
   */
  async restore(recoveryKey: string, version?: string): Promise<{ total: number; imported: number }> {
    const { engine, machine, http } = this.deps;
    const info = await getKeyBackupVersion(http, version);
    const key = this.keyFrom(recoveryKey);
    try {
      if (info.auth_data.public_key !== key.megolmV1PublicKey.publicKeyBase64) {
        throw new CryptoError("engine_failure", "The recovery key does not match the backup");
      }
      const all = await getRoomKeys(http, info.version);
      const byRoom = new Map<RoomId, Map<string, unknown>>();
      let total = 0;
      for (const [roomId, room] of Object.entries(isObject(all.rooms) ? all.rooms : {})) {
        const sessions = new Map<string, unknown>();
        for (const [sessionId, data] of Object.entries(isObject(room.sessions) ? room.sessions : {})) {
          const s = isObject(data) && isObject(data.session_data) ? data.session_data : undefined;
          const { ephemeral, mac, ciphertext } = s ?? {};
          if (typeof ephemeral !== "string" || typeof mac !== "string" || typeof ciphertext !== "string")
            continue;
          total += 1;
          try {
            sessions.set(sessionId, JSON.parse(key.decryptV1(ephemeral, mac, ciphertext)));
          } catch {
            // A corrupt or foreign entry must not stop the restore of the others.
          }
        }
        const id = roomIdOrUndefined(engine, roomId);
        if (id && sessions.size > 0) byRoom.set(id, sessions);
      }
      const result = await machine.importBackedUpRoomKeys(byRoom, () => undefined, info.version);
      try {
        return { total, imported: result.importedCount };
      } finally {
        result.free();
      }
    } finally {
      key.free();
    }
  }

  /** DELETE /room_keys/keys[/{roomId}[/{sessionId}]]?version=: removes backed-up keys. */
  async deleteKeys(version: string, roomId?: string, sessionId?: string): Promise<void> {
    await deleteRoomKeys(this.deps.http, version, roomId, sessionId);
  }

  /** Deletes the whole backup version and stops backing up locally. */
  async deleteVersion(version: string): Promise<void> {
    await deleteKeyBackupVersion(this.deps.http, version);
    await this.deps.machine.disableBackup();
  }
}
