/**
 * The adapter over the engine's OlmMachine: one per signed-in device. It is
 * the sync pipeline's decrypt hook (to-device events, device list changes,
 * one-time key counts and unused fallback key types go to the engine;
 * encrypted timeline events come back decrypted in place, or as
 * '** Unable to decrypt: ... **' stand-ins), it runs the outgoing request
 * processor after each batch, encrypts on send and to devices, lists
 * devices with their verification value, and retries waiting events when a
 * late key arrives, reporting each replacement to `onEventDecrypted`.
 *
 * Store: in Node the engine keeps its keys in memory. In browsers pass
 * `store: { name, passphrase }`: the engine opens its own IndexedDB
 * database of that name (`<name>::matrix-sdk-crypto` and friends) and
 * encrypts it with the passphrase; use a per-account name, delete on logout.
 */
import type { Logger } from "../util/logger";
import { silentLogger } from "../util/logger";
import type { OlmMachine, RoomKeyInfo } from "@matrix-org/matrix-sdk-crypto-wasm";
import type { ClientEventWithoutRoomId, ToDeviceEvent } from "../api/types/events";
import type { ToDeviceMessages } from "../api/types/to-device";
import type { HttpApi } from "../http/types";
import { createTxnIdGenerator } from "../http/txn";
import type { TxnIdGenerator } from "../http/txn";
import type { DecryptHook } from "../sync/processor/types";
import type { ParsedSync, ParsedTimeline } from "../sync/validate/types";
import type { RoomEventDecryption } from "./decrypt";
import { catchUpDeviceChanges } from "./device-lists";
import { decryptRoomEvent, sessionIdOf, waitsForKey } from "./decrypt";
import type { DeviceInfo, DeviceVerification } from "./devices";
import { listUserDevices, setDeviceVerification } from "./devices";
import type { Engine } from "./load";
import { loadCryptoEngine } from "./load";
import { KeyBackup } from "./KeyBackup";
import { HistoryBundles } from "./history-bundles";
import { downloadContent } from "../api/media";
import { KeyedLock } from "./lock";
import { userIds } from "./ids";
import { OutgoingRequests } from "./OutgoingRequests";
import { PendingDecryptions } from "./PendingDecryptions";
import { Recovery } from "./recovery";
import { SecretStorage } from "./secrets/SecretStorage";
import type { SecretStorageOptions } from "./secrets/SecretStorage";
import { RoomCryptoState } from "./RoomCryptoState";
import { RoomMemberCompleter } from "./room-members";
import { parseProcessedToDevice } from "./olm-senders";
import { fetchOlmSenderKeys } from "./sender-keys";
import type { EncryptedEvent, EncryptorDeps } from "./RoomEncryptor";
import { RoomEncryptor } from "./RoomEncryptor";
import type { ToDeviceResult, ToDeviceTarget } from "./ToDevice";
import { encryptToDevice, sendEncryptedToDevice } from "./ToDevice";
import type { CryptoInternals } from "./verification/internals";

/** The engine's persistent store in browsers (IndexedDB); omit for memory. */
export interface CryptoStoreOptions {
  /** IndexedDB database name prefix, one per account and device. */
  name: string;
  /** Passphrase the engine encrypts its store with. */
  passphrase?: string;
}

export interface CryptoMachineOptions {
  userId: string;
  deviceId: string;
  http: HttpApi;
  store?: CryptoStoreOptions;
  /** Room facts; pass the lazy loader's so state seen before loading is kept. */
  rooms?: RoomCryptoState;
  txnIds?: TxnIdGenerator;
  logger?: Pick<Logger, "warn">;
  /** Secret storage options (tests lower the PBKDF2 rounds). */
  secretStorage?: SecretStorageOptions;
  /** Defaults to the lazy loader; tests may pass a preloaded engine. */
  loadEngine?: () => Promise<Engine>;
}

/** A waiting event that decrypted after its key arrived late. */
export interface DecryptedUpdate {
  roomId: string;
  eventId: string;
  /** The replacement to show in place of the m.bad.encrypted stand-in. */
  event: ClientEventWithoutRoomId;
}

export type DecryptedUpdateListener = (update: DecryptedUpdate) => void;

/** The crypto adapter of one device. Create with `CryptoMachine.create`. */
export class CryptoMachine {
  readonly userId: string;
  readonly deviceId: string;
  readonly rooms: RoomCryptoState;
  /** Server-side key backup: create, upload, restore, delete. */
  readonly backup: KeyBackup;
  /** Secret storage (4S) in account data. */
  readonly secretStorage: SecretStorage;
  /** Recovery key set-up and recovery of a new device. */
  readonly recovery: Recovery;
  /** Room key history shared on invite (MSC4268). */
  readonly historyBundles: HistoryBundles;
  private readonly outgoing: OutgoingRequests;
  private readonly encryptor: RoomEncryptor;
  /** Lazy-loaded members leave some out: the full list is loaded before a room's key is shared. */
  private readonly members: RoomMemberCompleter;
  private readonly deps: EncryptorDeps;
  private readonly pending = new PendingDecryptions();
  private readonly listeners = new Set<DecryptedUpdateListener>();
  private readonly txnIds: TxnIdGenerator;
  private readonly logger: Pick<Logger, "warn">;
  private closed = false;

  private constructor(
    private readonly engine: Engine,
    private readonly machine: OlmMachine,
    private readonly http: HttpApi,
    options: CryptoMachineOptions,
  ) {
    this.userId = options.userId;
    this.deviceId = options.deviceId;
    this.rooms = options.rooms ?? new RoomCryptoState({ ownUserId: options.userId });
    this.logger = options.logger ?? silentLogger;
    this.txnIds = options.txnIds ?? createTxnIdGenerator();
    this.outgoing = new OutgoingRequests(engine, machine, http, this.logger);
    this.deps = { engine, machine, outgoing: this.outgoing, rooms: this.rooms, locks: new KeyedLock() };
    this.encryptor = new RoomEncryptor(this.deps);
    this.members = new RoomMemberCompleter(http, this.rooms, this.logger);
    this.backup = new KeyBackup({ engine, machine, outgoing: this.outgoing, http });
    this.secretStorage = new SecretStorage(http, this.userId, options.secretStorage);
    const { userId, deviceId, backup, secretStorage: storage, outgoing } = this;
    this.recovery = new Recovery({ engine, machine, outgoing, http, backup, storage, userId, deviceId });
    const download = async (mxc: string) => (await downloadContent(http, mxc)).data;
    this.historyBundles = new HistoryBundles({ ...this.deps, http, download, logger: this.logger });
  }

  /** Loads the engine (once per process) and opens the device's OlmMachine. */
  static async create(options: CryptoMachineOptions): Promise<CryptoMachine> {
    const engine = await (options.loadEngine ?? loadCryptoEngine)();
    const machine = await engine.OlmMachine.initialize(
      new engine.UserId(options.userId),
      new engine.DeviceId(options.deviceId),
      options.store?.name,
      options.store?.passphrase,
    );
    const crypto = new CryptoMachine(engine, machine, options.http, options);
    machine.registerRoomKeyUpdatedCallback((keys: RoomKeyInfo[]) => crypto.onRoomKeys(keys));
    machine.registerReceiveSecretCallback(async (name: string, value: string) => {
      await crypto.recovery.receiveSecret(name, value);
    });
    // A fresh device uploads its keys without waiting for the first sync.
    void crypto.outgoing.run();
    return crypto;
  }

  /** The sync pipeline's decrypt hook (see `processSync`). */
  readonly decryptHook: DecryptHook = (batch) => {
    this.rooms.ingest(batch);
    return this.processSync(batch);
  };

  /**
   * The decrypt phase for a batch whose room state was already ingested:
   * hands the engine the batch's E2EE sections, tracks members of encrypted
   * rooms, decrypts timeline events in place, then runs the outgoing
   * processor in the background (`flush` waits for it).
   */
  async processSync(batch: ParsedSync): Promise<ParsedSync> {
    const { engine, machine } = this;
    const lists = new engine.DeviceLists(
      userIds(engine, batch.deviceLists.changed),
      userIds(engine, batch.deviceLists.left),
    );
    const counts = new Map(batch.oneTimeKeysCount ?? []);
    // Absent means the server did not say; an empty set would make the engine upload fallback keys every time.
    const fallback = batch.unusedFallbackKeyTypes ? new Set(batch.unusedFallbackKeyTypes) : undefined;
    // Olm senders the engine has no device for are queried first, or their messages cannot decrypt.
    await fetchOlmSenderKeys(this.deps, batch.toDevice);
    const processed = await machine.receiveSyncChanges(
      JSON.stringify(batch.toDevice),
      lists,
      counts,
      fallback,
    );
    await this.trackUsers();
    const toDevice = await parseProcessedToDevice({ engine, machine }, processed);
    const out: ParsedSync = { ...batch, toDevice, rooms: { ...batch.rooms } };
    out.rooms.join = new Map(batch.rooms.join);
    for (const [roomId, room] of batch.rooms.join) {
      out.rooms.join.set(roomId, { ...room, timeline: await this.decryptTimeline(roomId, room.timeline) });
    }
    out.rooms.leave = new Map(batch.rooms.leave);
    for (const [roomId, room] of batch.rooms.leave) {
      out.rooms.leave.set(roomId, { ...room, timeline: await this.decryptTimeline(roomId, room.timeline) });
    }
    for (const listener of this.toDeviceListeners) listener(out.toDevice);
    this.historyBundles
      .onToDevice(out.toDevice)
      .catch((error: unknown) => this.logger.warn("crypto: a room key bundle was not imported", error));
    void this.outgoing.run();
    void this.backUpNewKeys();
    return out;
  }

  private backingUp: Promise<void> | undefined;
  /** Uploads keys not yet in the backup, when backup is on; one upload at a time. */
  private backUpNewKeys(): Promise<void> {
    this.backingUp ??= (async () => {
      try {
        if (await this.machine.isBackupEnabled()) await this.backup.upload();
      } catch (error) {
        this.logger.warn("crypto: key backup upload failed", error);
      } finally {
        this.backingUp = undefined;
      }
    })();
    return this.backingUp;
  }

  private readonly tracked = new Set<string>();
  private async trackUsers(): Promise<void> {
    // Tracking is idempotent in the engine; only users not handed over yet cross the boundary.
    const fresh = this.rooms.usersToTrack().filter((u) => !this.tracked.has(u));
    if (fresh.length === 0) return;
    await this.machine.updateTrackedUsers(userIds(this.engine, fresh));
    for (const u of fresh) this.tracked.add(u);
  }

  private async decryptTimeline(roomId: string, timeline: ParsedTimeline): Promise<ParsedTimeline> {
    if (!timeline.events.some((e) => e.type === "m.room.encrypted")) return timeline;
    return { ...timeline, events: await this.decryptEvents(roomId, timeline.events) };
  }

  /**
   * Decrypts the m.room.encrypted events of a list (a sync timeline, a
   * /messages page, a /context answer); other events pass through.
   */
  async decryptEvents(
    roomId: string,
    events: readonly ClientEventWithoutRoomId[],
  ): Promise<ClientEventWithoutRoomId[]> {
    // Own membership events of a page extend the history membershipAt reads.
    this.rooms.recordHistory(roomId, events);
    const out: ClientEventWithoutRoomId[] = [];
    for (const event of events) {
      out.push(event.type === "m.room.encrypted" ? (await this.decryptEvent(roomId, event)).event : event);
    }
    return out;
  }

  /** Decrypts one event; a failure waiting for a key is remembered for a late retry. */
  async decryptEvent(roomId: string, event: ClientEventWithoutRoomId): Promise<RoomEventDecryption> {
    const result = await decryptRoomEvent(this.engine, this.machine, roomId, event, (e) =>
      this.rooms.membershipAt(roomId, e.origin_server_ts),
    );
    const sessionId = sessionIdOf(event);
    if (sessionId !== undefined) {
      if (result.info.failure && waitsForKey(result.info.failure)) this.pending.add(roomId, sessionId, event);
      else this.pending.remove(roomId, sessionId, event.event_id);
    }
    return result;
  }

  /** Called by the engine with new or better room keys: retries the events waiting for them. */
  private async onRoomKeys(keys: RoomKeyInfo[]): Promise<void> {
    const sessions = keys.map((k) => {
      const s = { roomId: k.roomId.toString(), sessionId: k.sessionId };
      k.free();
      return s;
    });
    for (const { roomId, sessionId } of sessions) {
      for (const waiting of this.pending.take(roomId, sessionId)) {
        if (this.closed) return;
        const result = await this.decryptEvent(waiting.roomId, waiting.event);
        if (result.info.failure) continue;
        const update: DecryptedUpdate = { roomId, eventId: waiting.event.event_id, event: result.event };
        for (const listener of this.listeners) {
          try {
            listener(update);
          } catch (error) {
            this.logger.warn("crypto: a decrypted-event listener threw", error);
          }
        }
      }
    }
  }

  private readonly toDeviceListeners = new Set<(events: readonly ToDeviceEvent[]) => void>();
  /** Subscribes to each batch's clear to-device events (verification requests); returns the unsubscribe. */
  onToDevice(listener: (events: readonly ToDeviceEvent[]) => void): () => void {
    this.toDeviceListeners.add(listener);
    return () => this.toDeviceListeners.delete(listener);
  }

  /** The engine handles for cross-signing, verification and identity warnings; not for apps. */
  get internals(): CryptoInternals {
    const { userId, deviceId, engine, machine, outgoing, http, logger } = this;
    return { userId, deviceId, engine, machine, outgoing, http, logger };
  }

  /** Subscribes to late decryptions; returns the unsubscribe function. */
  onEventDecrypted(listener: DecryptedUpdateListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** How many events wait for a key. */
  get pendingDecryptions(): number {
    return this.pending.size;
  }

  /** Whether the room is encrypted (m.room.encryption seen). */
  isRoomEncrypted(roomId: string): boolean {
    return this.rooms.isEncrypted(roomId);
  }

  /** Encrypts a room event for sending (the send queue's "encrypting" step), for every member. */
  async encryptRoomEvent(
    roomId: string,
    type: string,
    content: Record<string, unknown>,
  ): Promise<EncryptedEvent> {
    await this.members.ensure(roomId);
    return this.encryptor.encryptEvent(roomId, type, content);
  }

  /** Shares the room key ahead of the first message. */
  async prepareRoom(roomId: string): Promise<void> {
    await this.members.ensure(roomId);
    return this.encryptor.prepare(roomId);
  }

  /** Discards the room's outbound session: the next message uses a new one. */
  rotateRoomKey(roomId: string): Promise<boolean> {
    return this.encryptor.rotate(roomId);
  }

  /** Olm-encrypts `content` to each target device and sends it. */
  sendToDevice(
    eventType: string,
    targets: readonly ToDeviceTarget[],
    content: Record<string, unknown>,
  ): Promise<ToDeviceResult> {
    return sendEncryptedToDevice(this.deps, this.http, this.txnIds(), eventType, targets, content);
  }

  /**
   * Olm-encrypts `content` to each target device without sending: the
   * `messages` of an m.room.encrypted to-device send, for a persistent queue.
   */
  encryptToDevice(
    eventType: string,
    targets: readonly ToDeviceTarget[],
    content: Record<string, unknown>,
  ): Promise<{ messages: ToDeviceMessages; result: ToDeviceResult }> {
    return encryptToDevice(this.deps, eventType, targets, content);
  }

  /** A user's devices with their verification value; waits up to `waitSecs` for a stale list. */
  async getUserDevices(userId: string, waitSecs?: number): Promise<DeviceInfo[]> {
    if (waitSecs !== undefined) {
      await this.machine.updateTrackedUsers(userIds(this.engine, [userId]));
      void this.outgoing.run();
    }
    return listUserDevices(this.engine, this.machine, userId, waitSecs);
  }

  /** Sets a device's verification value (-1 blocks it); false when unknown. */
  setDeviceVerification(userId: string, deviceId: string, value: DeviceVerification): Promise<boolean> {
    return setDeviceVerification(this.engine, this.machine, userId, deviceId, value);
  }

  /** This device's public identity keys. */
  identityKeys(): { ed25519: string; curve25519: string } {
    const keys = this.machine.identityKeys;
    return { ed25519: keys.ed25519.toBase64(), curve25519: keys.curve25519.toBase64() };
  }

  /** Exports every room key as the engine's JSON array of exported sessions (a key file's content). */
  exportRoomKeys(): Promise<string> {
    return this.machine.exportRoomKeys(() => true);
  }

  /**
   * Imports exported room keys (another device's export, a restored
   * backup); events waiting for those sessions decrypt and are reported to
   * `onEventDecrypted`. Returns how many keys were new or better.
   */
  async importRoomKeys(json: string): Promise<number> {
    const result = await this.machine.importExportedRoomKeys(json, () => undefined);
    try {
      return result.importedCount;
    } finally {
      result.free();
    }
  }

  /** Device lists changed between two v2 sync tokens the engine did not see (LazyCrypto's catch-up). */
  catchUpDeviceChanges(from: string, to: string): Promise<void> {
    const { engine, machine, http, outgoing } = this;
    return catchUpDeviceChanges({ engine, machine, http, outgoing }, from, to);
  }

  /** Sends whatever the engine has queued and waits until the processor is idle. */
  async flush(): Promise<void> {
    await this.outgoing.run();
    await this.outgoing.idle();
    await this.backingUp;
  }

  /** Closes the engine (and its IndexedDB connections). The machine is unusable afterwards. */
  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    await this.outgoing.idle();
    await this.backingUp;
    this.machine.close();
  }
}
