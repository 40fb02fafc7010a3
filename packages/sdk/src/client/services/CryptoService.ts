/**
 * The client's narrow crypto surface over the lazily loaded engine: device
 * lists with their verification values, block/unblock, key backup, room key
 * export/import, encrypted attachments and Olm-encrypted to-device messages
 * (encrypted here, then sent through the persistent to-device queue so a
 * reload sends them exactly once). The engine (WebAssembly) loads only when
 * the sync meets an encrypted room, event or to-device message, or when a
 * call here needs it.
 *
 * With crypto off every engine call throws the spec's messages: encrypted
 * to-device sends 'Cannot encrypt to device event, your client does not
 * support encryption.', the rest the room message. Attachments need no
 * engine (Web Crypto) and work either way.
 *
 * Hooks for the verification and secret storage layers: `machine()` loads
 * and returns the CryptoMachine, `onLoaded` runs a callback once it exists
 * (at once when it already does), so those layers attach without the client
 * loading the engine early. Over them: `verification` (SAS flows, incoming
 * requests, in-room events fed from sync), `crossSigning`,
 * `identityWarnings` and `recovery` (VerificationService.ts,
 * VerificationTrust.ts), all lazy in the same way.
 */
import type { Logger } from "../../util/logger";
import type { CryptoMachine, CryptoStoreOptions, DecryptedUpdateListener } from "../../crypto/CryptoMachine";
import type { LazyCrypto } from "../../crypto/LazyCrypto";
import type { DeviceInfo } from "../../crypto/devices";
import { DeviceVerification } from "../../crypto/devices";
import {
  CryptoError,
  ROOM_ENCRYPTION_UNSUPPORTED,
  TO_DEVICE_ENCRYPTION_UNSUPPORTED,
} from "../../crypto/errors";
import type { KeyBackup } from "../../crypto/KeyBackup";
import type { ToDeviceResult, ToDeviceTarget } from "../../crypto/ToDevice";
import type { DownloadEncryptedOptions, UploadEncryptedOptions } from "../../crypto/attachments/transfer";
import type { EncryptedFile } from "../../crypto/attachments/wire-types";
import type { DatabaseDeleter } from "../../crypto/store";
import { deleteCryptoStore } from "../../crypto/store";
import type { SecretStorage } from "../../crypto/secrets/SecretStorage";
import type { HttpApi } from "../../http/types";
import type { ToDeviceBatch } from "../../store/Store";
import { VerificationService } from "./VerificationService";
import { CrossSigningService, IdentityWarningsService, RecoveryService } from "./VerificationTrust";

/** What the service needs of the to-device queue. */
export interface ToDeviceSink {
  queue(eventType: string, messages: ToDeviceBatch["messages"]): Promise<ToDeviceBatch>;
}

export interface CryptoServiceOptions {
  http: HttpApi;
  /** The lazy loader; absent when crypto is off. */
  lazy?: LazyCrypto;
  /** Where encrypted to-device batches are queued (persisted, retried). */
  toDevice: ToDeviceSink;
  /** The engine's IndexedDB store (browsers); deleted by `deleteStore`. */
  store?: CryptoStoreOptions;
  /** The IndexedDB factory to delete the engine's store with; defaults to globalThis.indexedDB. */
  indexedDB?: DatabaseDeleter;
  /** Where background failures of the verification layer are logged. */
  logger?: Pick<Logger, "warn">;
  /** Time-out of each verification flow; default 10 minutes. */
  verificationTimeoutMs?: number;
}

/** The client's crypto: see the file overview. */
export class CryptoService {
  /** Whether this client encrypts (a deviceId, not a guest, and crypto not turned off). */
  readonly enabled: boolean;
  private readonly lazy: LazyCrypto | undefined;
  private readonly loadedListeners = new Set<(machine: CryptoMachine) => void>();
  private readonly decryptedListeners = new Set<DecryptedUpdateListener>();
  private readonly stopWatching: () => void;
  private closed = false;
  /** Interactive (SAS emoji) verification: requests out, incoming requests, in-room flows. */
  readonly verification: VerificationService;
  /** Cross-signing: status (observable) and bootstrap with interactive auth. */
  readonly crossSigning: CrossSigningService;
  /** Per-user identity trust and warnings. */
  readonly identityWarnings: IdentityWarningsService;
  /** Secret storage and the recovery key (set up, recover a new device). */
  readonly recovery: RecoveryService;

  constructor(private readonly options: CryptoServiceOptions) {
    this.lazy = options.lazy;
    this.enabled = options.lazy !== undefined;
    this.stopWatching = options.lazy?.onCreated((machine) => this.announce(machine)) ?? (() => undefined);
    const { logger, verificationTimeoutMs } = options;
    this.verification = new VerificationService(this, {
      ...(logger ? { logger } : {}),
      ...(verificationTimeoutMs !== undefined ? { timeoutMs: verificationTimeoutMs } : {}),
    });
    this.crossSigning = new CrossSigningService(this, logger);
    this.identityWarnings = new IdentityWarningsService(this);
    this.recovery = new RecoveryService(this, this.crossSigning);
    // A finished verification of our own device changes what the status reads.
    this.verification.onFlowDone(() => this.crossSigning.refreshQuietly());
  }

  /** Secret storage (m.secret_storage.* account data); loads the engine. */
  secretStorage(): Promise<SecretStorage> {
    return this.recovery.secretStorage();
  }

  /** Whether the engine has been loaded and the machine created. */
  get loaded(): boolean {
    return this.lazy?.current !== undefined;
  }

  /** The machine, loading the engine if needed (the hook for verification and secret storage). */
  machine(): Promise<CryptoMachine> {
    const lazy = this.lazy;
    if (!lazy) return Promise.reject(new CryptoError("crypto_disabled", ROOM_ENCRYPTION_UNSUPPORTED));
    if (this.closed) return Promise.reject(new CryptoError("engine_failure", "Crypto is closed"));
    return lazy.ensure().then((machine) => {
      this.announce(machine);
      return machine;
    });
  }

  /**
   * Runs `listener` once the machine exists (at once if it does): where the
   * verification and secret storage layers attach. Never loads the engine.
   */
  onLoaded(listener: (machine: CryptoMachine) => void): () => void {
    this.loadedListeners.add(listener);
    const current = this.lazy?.current;
    if (current) this.announce(current);
    return () => this.loadedListeners.delete(listener);
  }

  /** Events whose key arrived late and that now decrypt (the machine's onEventDecrypted). */
  onEventDecrypted(listener: DecryptedUpdateListener): () => void {
    this.decryptedListeners.add(listener);
    return () => this.decryptedListeners.delete(listener);
  }

  /** Whether the room is encrypted, known without loading the engine. */
  isRoomEncrypted(roomId: string): boolean {
    return this.lazy?.isRoomEncrypted(roomId) ?? false;
  }

  /** A user's devices with their verification value (-1 blocked, 0 unverified, 1 verified). */
  async getUserDevices(userId: string, waitSecs?: number): Promise<DeviceInfo[]> {
    return (await this.machine()).getUserDevices(userId, waitSecs);
  }

  /** Sets a device's verification value; false when the device is unknown. */
  async setDeviceVerification(userId: string, deviceId: string, value: DeviceVerification): Promise<boolean> {
    return (await this.machine()).setDeviceVerification(userId, deviceId, value);
  }

  /** Blocks a device: it gets no room keys from now on. */
  blockDevice(userId: string, deviceId: string): Promise<boolean> {
    return this.setDeviceVerification(userId, deviceId, DeviceVerification.Blocked);
  }

  /** Clears a block (the device is unverified again). */
  unblockDevice(userId: string, deviceId: string): Promise<boolean> {
    return this.setDeviceVerification(userId, deviceId, DeviceVerification.Unverified);
  }

  /** Server-side key backup (create, upload, restore, delete). */
  async keyBackup(): Promise<KeyBackup> {
    return (await this.machine()).backup;
  }

  /** This device's public identity keys. */
  async identityKeys(): Promise<{ ed25519: string; curve25519: string }> {
    return (await this.machine()).identityKeys();
  }

  /** Every room key as the engine's exported JSON. */
  async exportRoomKeys(): Promise<string> {
    return (await this.machine()).exportRoomKeys();
  }

  /** Imports exported room keys; returns how many were new or better. */
  async importRoomKeys(json: string): Promise<number> {
    return (await this.machine()).importRoomKeys(json);
  }

  /**
   * Olm-encrypts `content` for each target device and queues one
   * m.room.encrypted batch (persisted before the PUT, sent exactly once).
   * Devices that are blocked, unknown or without a session are reported as
   * skipped. Throws the spec's message when crypto is off.
   */
  async sendToDevice(
    eventType: string,
    targets: readonly ToDeviceTarget[],
    content: Record<string, unknown>,
  ): Promise<ToDeviceResult> {
    if (!this.lazy) throw new CryptoError("crypto_disabled", TO_DEVICE_ENCRYPTION_UNSUPPORTED);
    const machine = await this.machine();
    const { messages, result } = await machine.encryptToDevice(eventType, targets, content);
    const batch: ToDeviceBatch["messages"] = [];
    for (const [userId, devices] of Object.entries(messages)) {
      for (const [deviceId, payload] of Object.entries(devices)) batch.push({ userId, deviceId, payload });
    }
    if (batch.length > 0) await this.options.toDevice.queue("m.room.encrypted", batch);
    return result;
  }

  /**
   * Megolm-encrypts one room event outside the send queue (the delayed and
   * sticky sends a widget asks for go straight to their endpoints), sharing
   * the room key with the members first, as a queued send would. Throws the
   * spec's message when crypto is off.
   */
  async encryptRoomEvent(
    roomId: string,
    eventType: string,
    content: Record<string, unknown>,
  ): Promise<{ type: "m.room.encrypted"; content: Record<string, unknown> }> {
    if (!this.lazy) throw new CryptoError("crypto_disabled", ROOM_ENCRYPTION_UNSUPPORTED);
    const machine = await this.machine();
    return machine.encryptRoomEvent(roomId, eventType, content);
  }

  /** Encrypts and uploads a file; the result is the event's `file`. */
  // The attachment cipher loads on first use: a page that shows no encrypted file never needs it.
  async uploadAttachment(data: Uint8Array, options?: UploadEncryptedOptions): Promise<EncryptedFile> {
    const { uploadEncryptedAttachment } = await import("../../crypto/attachments/transfer");
    return uploadEncryptedAttachment(this.options.http, data, options);
  }

  /** Downloads and decrypts the file an (untrusted) EncryptedFile describes. */
  async downloadAttachment(
    file: unknown,
    options?: DownloadEncryptedOptions,
  ): Promise<Uint8Array<ArrayBuffer>> {
    const { downloadEncryptedAttachment } = await import("../../crypto/attachments/transfer");
    return downloadEncryptedAttachment(this.options.http, file, options);
  }

  /**
   * Shares the room's key history with a user just invited (MSC4268): only
   * for an encrypted room whose history visibility lets new members read
   * earlier messages (shared, world_readable). False when nothing was sent
   * (crypto off, nothing to share, an engine without bundles).
   */
  async shareRoomHistory(roomId: string, userId: string): Promise<boolean> {
    const lazy = this.lazy;
    if (!lazy || !lazy.isRoomEncrypted(roomId)) return false;
    const machine = await this.machine();
    const visibility = machine.rooms.historyVisibility(roomId);
    if (visibility !== "shared" && visibility !== "world_readable") return false;
    return machine.historyBundles.share(roomId, userId);
  }

  /**
   * After joining a room we were invited to: imports the inviter's key
   * history bundle (MSC4268) now, or when it arrives. True when imported now.
   */
  async acceptRoomHistory(roomId: string, inviterId: string): Promise<boolean> {
    if (!this.lazy) return false;
    return (await this.machine()).historyBundles.accept(roomId, inviterId);
  }

  /** Sends what the engine has queued and waits for it (tests, before a logout). */
  async flush(): Promise<void> {
    await this.lazy?.current?.flush();
  }

  /** Closes the machine (and its IndexedDB connections); the service is unusable afterwards. */
  async close(): Promise<void> {
    this.closed = true;
    this.stopWatching();
    this.verification.dispose();
    this.loadedListeners.clear();
    this.decryptedListeners.clear();
    // Also closes a machine still being created (the background load of a new device).
    await this.lazy?.close();
  }

  /** Deletes the engine's IndexedDB store (logout); call after close(). No store, nothing to do. */
  async deleteStore(): Promise<void> {
    const name = this.options.store?.name;
    const factory = this.options.indexedDB ?? (globalThis as { indexedDB?: DatabaseDeleter }).indexedDB;
    if (name === undefined || factory === undefined) return;
    await deleteCryptoStore(factory, name);
  }

  private readonly announced = new WeakSet<CryptoMachine>();
  private announce(machine: CryptoMachine): void {
    if (this.closed) return;
    if (!this.announced.has(machine)) {
      this.announced.add(machine);
      machine.onEventDecrypted((update) => {
        for (const listener of this.decryptedListeners) listener(update);
      });
    }
    for (const listener of [...this.loadedListeners]) {
      this.loadedListeners.delete(listener);
      listener(machine);
    }
  }
}
