/**
 * Recovery: secret storage put to work. `setUp` stores this device's
 * private cross-signing keys and the key backup's key in secret storage
 * under a new default key and hands back the recovery key (optionally also
 * opened by a passphrase). `recover` on a new device unlocks the default key
 * with the recovery key or passphrase, imports the cross-signing keys into
 * the engine, signs this device with the self-signing key (so the user's
 * other devices and other users who verified the user see it as verified,
 * 1), marks the own identity verified, then restores and re-enables the key
 * backup: events that waited for those keys decrypt in place through the
 * late-key path. Cross-signing bootstrap itself lives with verification.
 */
import type { OlmMachine, OwnUserIdentity, SignatureUploadRequest } from "@matrix-org/matrix-sdk-crypto-wasm";
import { getKeyBackupVersion } from "../api/room-keys";
import type { HttpApi } from "../http/types";
import type { KeyBackup } from "./KeyBackup";
import type { Engine } from "./load";
import type { OutgoingRequests } from "./OutgoingRequests";
import { base64ToBytes, encodeRecoveryKey } from "./recovery-key";
import { SecretStorageError } from "./secrets/errors";
import type { SecretStorage, UnlockedKey } from "./secrets/SecretStorage";
import { SecretName } from "./secrets/SecretStorage";

export interface RecoveryDeps {
  engine: Engine;
  machine: OlmMachine;
  outgoing: OutgoingRequests;
  http: HttpApi;
  backup: KeyBackup;
  storage: SecretStorage;
  userId: string;
  deviceId: string;
}

/** How to set recovery up. */
export interface RecoverySetUpOptions {
  /** Also open the new key with this passphrase (PBKDF2). */
  passphrase?: string;
  /** PBKDF2 rounds for the passphrase; DEFAULT_PBKDF2_ITERATIONS when absent. */
  pbkdf2Iterations?: number;
}

/** What `setUp` made. */
export interface RecoverySetUp {
  /** The key to show the user once ("EsTc LW2K ..."). */
  recoveryKey: string;
  keyId: string;
  /** The backup version whose key is stored. */
  backupVersion: string;
}

/** How the user unlocks recovery: the recovery key or the passphrase. */
export type RecoverySecret = { recoveryKey: string } | { passphrase: string };

/** What `recover` did. */
export interface RecoveryResult {
  /** Cross-signing keys imported and this device signed with them. */
  crossSigning: boolean;
  /** The restored backup, when one was stored. */
  backup?: { version: string; total: number; imported: number };
}

const CROSS_SIGNING: Array<[SecretName, "masterKey" | "self_signing_key" | "userSigningKey"]> = [
  [SecretName.CrossSigningMaster, "masterKey"],
  [SecretName.CrossSigningSelfSigning, "self_signing_key"],
  [SecretName.CrossSigningUserSigning, "userSigningKey"],
];

/** Recovery of one device. */
export class Recovery {
  constructor(private readonly deps: RecoveryDeps) {}

  /**
   * Puts the cross-signing keys (which must exist on this device) and the
   * backup key into secret storage under a new default key. Uses the
   * backup this device backs up to, or creates one.
   */
  async setUp(options: RecoverySetUpOptions = {}): Promise<RecoverySetUp> {
    const { machine, storage, backup } = this.deps;
    const exported = await machine.exportCrossSigningKeys();
    const crossSigning: Array<[SecretName, string]> = [];
    if (exported) {
      for (const [name, field] of CROSS_SIGNING) {
        const value = exported[field];
        if (value) crossSigning.push([name, value]);
      }
      exported.free();
    }
    if (crossSigning.length < CROSS_SIGNING.length) {
      throw new SecretStorageError("no_cross_signing", "This device does not hold the cross-signing keys");
    }
    let backupKey: string;
    let backupVersion: string;
    const local = await this.localBackupKey();
    if (local) {
      ({ key: backupKey, version: backupVersion } = local);
    } else {
      const created = await backup.create();
      backupVersion = created.version;
      const again = await this.localBackupKey();
      if (!again) throw new SecretStorageError("crypto_failure", "The new backup key was not kept");
      backupKey = again.key;
    }
    const key = await storage.createKey(options);
    for (const [name, value] of crossSigning) await storage.store(name, value, [key]);
    await storage.store(SecretName.MegolmBackup, backupKey, [key]);
    const recoveryKey = key.recoveryKey;
    key.key.fill(0);
    return { recoveryKey, keyId: key.keyId, backupVersion };
  }

  /** Whether recovery is set up: a default key with the backup key stored under it. */
  async isSetUp(): Promise<boolean> {
    const keyId = await this.deps.storage.getDefaultKeyId();
    if (keyId === null) return false;
    return (await this.deps.storage.storedWith(SecretName.MegolmBackup)).includes(keyId);
  }

  /**
   * Recovers this device: unlocks secret storage (SecretStorageError
   * "wrong_key" for a wrong key or passphrase), imports and uses the
   * cross-signing keys, and restores the key backup.
   */
  async recover(secret: RecoverySecret): Promise<RecoveryResult> {
    const { storage } = this.deps;
    const unlocked =
      "recoveryKey" in secret
        ? await storage.keyFromRecoveryKey(secret.recoveryKey)
        : await storage.keyFromPassphrase(secret.passphrase);
    try {
      const result: RecoveryResult = { crossSigning: await this.importCrossSigning(unlocked) };
      const stored = await storage.storedWith(SecretName.MegolmBackup);
      if (stored.includes(unlocked.keyId)) {
        const backupKey = await storage.get(SecretName.MegolmBackup, unlocked);
        result.backup = await this.restoreBackup(backupKey);
      }
      return result;
    } finally {
      unlocked.key.fill(0);
    }
  }

  private async importCrossSigning(unlocked: UnlockedKey): Promise<boolean> {
    const { storage, machine } = this.deps;
    const values: Array<string | null> = [];
    for (const [name] of CROSS_SIGNING) {
      const has = (await storage.storedWith(name)).includes(unlocked.keyId);
      values.push(has ? await storage.get(name, unlocked) : null);
    }
    if (values.every((v) => v === null)) return false;
    const status = await machine.importCrossSigningKeys(values[0], values[1], values[2]);
    const canSign = status.hasSelfSigning;
    status.free();
    if (!canSign)
      throw new SecretStorageError("no_cross_signing", "The stored cross-signing keys were not accepted");
    await this.signOwnDevice();
    return true;
  }

  /**
   * Asks the user's other devices for the secrets this device lacks
   * (m.secret.request for the cross-signing keys and the backup key). A
   * verified own device answers with m.secret.send over Olm: the engine
   * takes the cross-signing keys itself and hands the backup key to
   * `receiveSecret`. Returns whether anything was asked for.
   */
  async requestSecrets(): Promise<boolean> {
    const asked: unknown = await this.deps.machine.requestMissingSecretsIfNeeded();
    await this.deps.outgoing.run();
    return asked === true;
  }

  /**
   * A secret received from a verified own device (the engine's receive
   * callback). A backup key that opens the server's current backup is used
   * to restore and back up from now on; anything else is left alone.
   * Resolves with the restore counts, or undefined when nothing was done.
   */
  async receiveSecret(name: string, value: string): Promise<RecoveryResult["backup"]> {
    if (name !== SecretName.MegolmBackup) return undefined;
    try {
      const restored = await this.restoreBackup(value);
      await this.deps.machine.deleteSecretsFromInbox(name);
      this.received.forEach((listener) => listener(restored));
      return restored;
    } catch {
      // A stale or foreign key (CryptoError from the key check): the next answer may be the right one.
      return undefined;
    }
  }

  private readonly received = new Set<(restored: NonNullable<RecoveryResult["backup"]>) => void>();

  /** Subscribes to backups restored from a shared backup key; returns the unsubscribe. */
  onBackupKeyReceived(listener: (restored: NonNullable<RecoveryResult["backup"]>) => void): () => void {
    this.received.add(listener);
    return () => this.received.delete(listener);
  }

  /**
   * Signs this device with the self-signing key (once the engine holds it,
   * after `recover` or secrets shared by another device) and marks the own
   * identity verified.
   */
  async signOwnDevice(): Promise<void> {
    const status = await this.deps.machine.crossSigningStatus();
    const canSign = status.hasSelfSigning;
    status.free();
    if (!canSign)
      throw new SecretStorageError("no_cross_signing", "This device does not hold the self-signing key");
    const { engine, machine, outgoing, userId, deviceId } = this.deps;
    const user = new engine.UserId(userId);
    // The engine needs the own identity from a key query; wait for the one it has queued.
    await outgoing.run();
    const identity = (await machine.getIdentity(user)) as OwnUserIdentity | undefined;
    if (identity) {
      try {
        if (!identity.isVerified()) await this.upload(await identity.verify());
      } finally {
        identity.free();
      }
    }
    const device = await machine.getDevice(user, new engine.DeviceId(deviceId), 5);
    if (!device) throw new SecretStorageError("crypto_failure", "This device is not known to the engine");
    try {
      await this.upload(await device.verify());
    } finally {
      device.free();
    }
    // Query our keys again so this engine sees the published signature too.
    await outgoing.send(machine.queryKeysForUsers([new engine.UserId(userId)]));
  }

  private async upload(request: SignatureUploadRequest): Promise<void> {
    try {
      await this.deps.outgoing.send(request);
    } finally {
      request.free();
    }
  }

  private async restoreBackup(
    backupKey: string,
  ): Promise<{ version: string; total: number; imported: number }> {
    const { http, backup } = this.deps;
    const recoveryKey = encodeRecoveryKey(base64ToBytes(backupKey));
    const info = await getKeyBackupVersion(http);
    const counts = await backup.restore(recoveryKey, info.version);
    await backup.enable(info.version, recoveryKey);
    return { version: info.version, ...counts };
  }

  private async localBackupKey(): Promise<{ key: string; version: string } | undefined> {
    const keys = await this.deps.machine.getBackupKeys();
    try {
      const key = keys.decryptionKey;
      const version = keys.backupVersion;
      if (!key || !version) return undefined;
      try {
        return { key: key.toBase64(), version };
      } finally {
        key.free();
      }
    } finally {
      keys.free();
    }
  }
}
