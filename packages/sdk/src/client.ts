/**
 * The client facade (GUIDE rule 2): createClient wires the HTTP client, the
 * sync service, the room model, the send queues, the lazily loaded crypto
 * and the room/account services together, and owns nothing else. Each service takes only the
 * narrow interfaces it needs; the logic lives in them, not here.
 *
 * Calls that need a running client throw 'Client is not running' through
 * the sync service's guard; calls naming a room the client does not know
 * throw 'Unknown room' through the Rooms model.
 *
 * Crypto (on by default for a device that is not a guest): a LazyCrypto is
 * the sync processor's decrypt hook and the send queue's encrypt; the
 * WebAssembly engine loads only when the first encrypted room, event or
 * to-device message appears, or (in the background) when sync says this
 * device has no one-time keys on the server (a new device uploads its keys
 * at once). It is also the room model's EventDecryptor
 * (pagination, /context, threads), and late decryptions reported by the
 * crypto service are applied to the room model in place. Off, sends into
 * encrypted rooms fail with the spec's message and unencrypted rooms work
 * as before, unless a transport's far end encrypts (the embedded client's
 * host): then they go to it in the clear.
 */
import type { Logger } from "./util/logger";
import { logout as apiLogout } from "./api/login";
import type { ToDeviceEvent } from "./api/types/events";
import type { VersionsResponse } from "./api/types/server";
import type { Session } from "./auth/session";
import { ClientServiceError } from "./client/errors";
import { AccountDataService } from "./client/services/AccountDataService";
import { CryptoService } from "./client/services/CryptoService";
import { DirectoryService } from "./client/services/DirectoryService";
import { ModerationService } from "./client/services/ModerationService";
import { PresenceService } from "./client/services/PresenceService";
import { ProfileService } from "./client/services/ProfileService";
import { ReceiptService } from "./client/services/ReceiptService";
import { SearchService } from "./client/services/SearchService";
import { StateService } from "./client/services/StateService";
import { TypingService } from "./client/services/TypingService";
import type { Actor } from "./client/services/types";
import { UrlPreviewService } from "./client/services/UrlPreviewService";
import { TokenRefresher } from "./auth/refresh";
import type { CryptoStoreOptions } from "./crypto/CryptoMachine";
import { LazyCrypto } from "./crypto/LazyCrypto";
import type { CryptoMachineFactory } from "./crypto/LazyCrypto";
import type { DatabaseDeleter } from "./crypto/store";
import { createHttpClient } from "./http/client";
import { MatrixError } from "./http/errors";
import type { HttpClientOptions } from "./http/client";
import type { HttpApi } from "./http/types";
import { Rooms } from "./models/room/Rooms";
import { RoomListSummaryCache } from "./models/room-list/summary-cache";
import { SendQueue } from "./send/SendQueue";
import { ToDeviceQueue } from "./send/ToDeviceQueue";
import type { EncryptFn } from "./send/types";
import { MemoryStore } from "./store/MemoryStore";
import type { Store } from "./store/Store";
import { SyncProcessor } from "./sync/processor/SyncProcessor";
import { realScheduler } from "./util/scheduler";
import type { Scheduler } from "./util/scheduler";
import { SyncService } from "./sync/SyncService";
import type { SyncServiceOptions } from "./sync/SyncService";
import type { ServerFeatures } from "./sync/server-features";
import { lazyServices } from "./client/lazy-services";
import type { RtcService } from "./rtc/RtcService";
import type { RtcTransport } from "./rtc/membership/types";
import type { KeyTarget as RtcKeyTarget } from "./rtc/keys/transports";
import type { FilesService } from "./files/FilesService";
import type { VoipOptions, VoipService } from "./voip/VoipService";

export * from "./client/index";

export interface CreateClientOptions {
  /** The homeserver; taken from the session when one is given. */
  baseUrl?: string;
  /** A signed-in session (tokens, user and device); requests go through its TokenRefresher. */
  session?: Session;
  /** Without a session: the token, user and device to act as. */
  accessToken?: string;
  userId?: string;
  deviceId?: string;
  /** Persistent store; defaults to a MemoryStore (guests always get one). */
  store?: Store;
  guest?: boolean;
  /** Options of the HTTP client (fetch, retries, time-outs). */
  httpOptions?: Omit<HttpClientOptions, "baseUrl" | "accessToken">;
  /** Time and randomness for every timer rule; defaults to the real ones. */
  scheduler?: Scheduler;
  logger?: Logger;
  /**
   * End-to-end encryption: on by default when a deviceId is known and the
   * client is not a guest; false turns it off; a factory creates the
   * CryptoMachine itself (tests, a preloaded engine). The engine loads
   * lazily either way.
   */
  crypto?: boolean | CryptoMachineFactory;
  /** The engine's IndexedDB store in browsers (per account and device); memory when omitted. */
  cryptoStore?: CryptoStoreOptions;
  /** The IndexedDB factory logout deletes the crypto store with; defaults to globalThis.indexedDB. */
  indexedDB?: DatabaseDeleter;
  /** Further sync service options (poll time-out, presence, capabilities refresh...). */
  sync?: Partial<Omit<SyncServiceOptions, "http" | "store" | "userId" | "guest" | "processor">>;
  /** Typing notice time-out; defaults to 20000 ms. */
  typingTimeoutMs?: number;
  /** Backoff before the second account data write attempt; defaults to 1000 ms. */
  accountDataRetryBaseMs?: number;
  /** MatrixRTC: the LiveKit transports to offer when the server names none. */
  rtcTransports?: readonly RtcTransport[];
  /** Calls: the media platform (the web app's), and the fallback STUN permission. */
  voip?: VoipOptions;
  /**
   * Embedded mode (sdk/src/embedded): the HTTP layer replaced by another
   * transport; `userId` (and `deviceId` for calls) are then required.
   */
  transport?: ClientTransport;
}

/** A replacement for the HTTP layer (the embedded client's widget transport). */
export interface ClientTransport {
  readonly http: HttpApi;
  /** Encrypted to-device for MatrixRTC keys when the transport encrypts itself (crypto stays off). */
  sendToDevice?: (
    type: string,
    targets: readonly RtcKeyTarget[],
    content: Record<string, unknown>,
  ) => Promise<void>;
  /**
   * The far end encrypts room events (a widget host): with crypto off, sends into an encrypted
   * room go to it in the clear instead of failing with the spec's "does not support encryption".
   */
  hostEncrypts?: boolean;
  /**
   * To-device events as the far end decrypted them (marked `hostDecrypted`), in place of the sync
   * batches' to_device for `client.onToDevice` and MatrixRTC: the sync parser keeps wire fields only.
   */
  onToDevice?: (listener: (events: readonly ToDeviceEvent[]) => void) => () => void;
}

/** A wired client: the services, and the lifecycle. */
export interface Client {
  readonly userId: string;
  readonly deviceId: string | undefined;
  readonly guest: boolean;
  /** The homeserver API: with a session, tokens are refreshed ahead of expiry and on M_UNKNOWN_TOKEN. */
  readonly http: HttpApi;
  readonly sync: SyncService;
  readonly rooms: Rooms;
  readonly sendQueue: SendQueue;
  /** The persistent to-device queue (plain batches; encrypted ones go through `crypto.sendToDevice`). */
  readonly toDevice: ToDeviceQueue;
  /** Devices, trust, key backup, encrypted attachments and to-device; `enabled` false when off. */
  readonly crypto: CryptoService;
  /** State events: sent at once (not queued), with a clear failure reason. */
  readonly state: StateService;
  readonly receipts: ReceiptService;
  readonly typing: TypingService;
  readonly presence: PresenceService;
  readonly accountData: AccountDataService;
  readonly profile: ProfileService;
  readonly moderation: ModerationService;
  readonly search: SearchService;
  readonly directory: DirectoryService;
  readonly urlPreviews: UrlPreviewService;
  /**
   * MatrixRTC calls: sessions per room, join, leave, ring, decline,
   * participants and their keys. Loaded on first use (its own chunk; also
   * in the background by start()); the same service every time.
   */
  rtc(): Promise<RtcService>;
  /**
   * 1:1 calls and mesh group calls (docs/architecture/0012-voip.md). Loaded
   * on first use (its own chunk; also in the background by start(), so
   * incoming calls ring); the same service every time.
   */
  voip(): Promise<VoipService>;
  /** File trees over spaces (MSC3089): shared, encrypted folders with roles. Loaded on first use. */
  files(): Promise<FilesService>;
  /**
   * To-device events of each network batch, Olm-decrypted when crypto is on
   * (call signalling, widgets, verification); returns the unsubscribe.
   */
  onToDevice(listener: (events: readonly ToDeviceEvent[]) => void): () => void;
  /** The server's versions document, cached and refreshed with the capabilities (a failure is not cached). */
  versions(): Promise<VersionsResponse>;
  /**
   * The server's optional features (sync/server-features.ts), read from the
   * cached versions document and capabilities; none when /versions answers an error.
   */
  serverFeatures(): Promise<ServerFeatures>;
  /** Restores the store and starts syncing and sending. */
  start(): Promise<void>;
  /** Stops syncing and typing renewals; start() may be called again. */
  stop(): Promise<void>;
  /**
   * Stops for good: the queues, the room model and the crypto machine let go
   * of everything and the store is closed. With `clearStorage` the store's
   * data and the crypto store are deleted too (what a logout does).
   */
  dispose(options?: DisposeOptions): Promise<void>;
  /**
   * Signs this device out on the server (POST /logout; with a session,
   * through it, so the session ends too), then disposes with clearStorage.
   * Local data is deleted even when the request fails; the failure is
   * rethrown afterwards (an already invalid token is not a failure).
   */
  logout(): Promise<void>;
}

/** Options of `Client.dispose`. */
export interface DisposeOptions {
  /** Delete the store's data and the crypto store (logout). */
  clearStorage?: boolean;
}

/** Builds the lazy loader when crypto is on; throws when it was asked for and cannot be. */
function lazyCryptoOf(options: CreateClientOptions, identity: Identity): LazyCrypto | undefined {
  const { crypto } = options;
  if (crypto === false) return undefined;
  const { http, userId, deviceId, guest } = identity;
  if (deviceId === undefined || guest) {
    if (crypto === undefined) return undefined;
    throw new ClientServiceError("INVALID_OPTIONS", "Encryption needs a device id and a signed-in user");
  }
  const logger = options.logger;
  const factory: CryptoMachineFactory =
    typeof crypto === "function"
      ? crypto
      : async (rooms) =>
          // The engine's wrapper is its own chunk, loaded with the engine (not on the first screen).
          (await import("./crypto/CryptoMachine")).CryptoMachine.create({
            userId,
            deviceId,
            http,
            rooms,
            ...(options.cryptoStore ? { store: options.cryptoStore } : {}),
            ...(logger ? { logger } : {}),
          });
  return new LazyCrypto(factory, { userId, ...(logger ? { logger } : {}) });
}

interface Identity {
  http: HttpApi;
  userId: string;
  deviceId: string | undefined;
  guest: boolean;
}

function identityOf(options: CreateClientOptions): Identity {
  const { session, transport } = options;
  if (transport !== undefined) {
    if (options.userId === undefined)
      throw new ClientServiceError("INVALID_OPTIONS", "createClient with a transport needs a userId");
    return { http: transport.http, userId: options.userId, deviceId: options.deviceId, guest: false };
  }
  if (session !== undefined) {
    const userId = session.userId;
    if (userId === undefined) throw new ClientServiceError("INVALID_OPTIONS", "The session is signed out");
    return {
      http: TokenRefresher.forSession(session, options.httpOptions),
      userId,
      deviceId: session.deviceId,
      guest: options.guest ?? session.isGuest,
    };
  }
  if (options.baseUrl === undefined || options.accessToken === undefined || options.userId === undefined) {
    throw new ClientServiceError(
      "INVALID_OPTIONS",
      "createClient needs a session, or baseUrl, accessToken and userId",
    );
  }
  return {
    http: createHttpClient({
      ...options.httpOptions,
      baseUrl: options.baseUrl,
      accessToken: options.accessToken,
    }),
    userId: options.userId,
    deviceId: options.deviceId,
    guest: options.guest ?? false,
  };
}

/** The host encrypts (ClientTransport.hostEncrypts): the send queue hands it the event as written. */
const sendInTheClear: EncryptFn = (_roomId, type, content) => Promise.resolve({ type, content });

/** Creates a client; nothing is fetched until start(). */
export function createClient(options: CreateClientOptions): Client {
  const identity = identityOf(options);
  const { http, userId, deviceId, guest } = identity;
  const lazy = lazyCryptoOf(options, identity);
  const scheduler = options.scheduler ?? realScheduler;
  const actor: Actor = { userId, guest };
  // The sync service builds its processor over the store it actually uses
  // (a MemoryStore for guests); the room model and send queue listen to it.
  const made: { processor?: SyncProcessor } = {};
  const sync = new SyncService({
    ...options.sync,
    http,
    store: options.store ?? new MemoryStore(),
    userId,
    guest,
    scheduler,
    ...(options.logger ? { logger: options.logger } : {}),
    processor: (store) =>
      (made.processor = new SyncProcessor({
        store,
        ...(options.logger ? { logger: options.logger } : {}),
        ...(lazy ? { decrypt: lazy.decryptHook } : {}),
      })),
  });
  const processor = made.processor;
  const rooms = new Rooms({
    userId,
    http,
    scheduler,
    ...(processor ? { source: processor } : {}),
    ...(lazy ? { decryptor: lazy } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });
  // The room list summary: read before the stored snapshot, staged while running (summary-cache.ts).
  const summary = guest
    ? undefined
    : new RoomListSummaryCache({
        rooms,
        store: sync.store,
        userId,
        ...(options.logger ? { logger: options.logger } : {}),
      });
  if (summary)
    sync.setStartHooks({
      afterOpen: () => summary.prefetch(),
      beforeRestore: (discarded) => summary.load(discarded),
      beforeSave: () => summary.stage(),
    });
  const sendQueue = new SendQueue({
    http,
    store: sync.store,
    scheduler,
    connection: sync.state,
    isRoomEncrypted: (roomId) =>
      (rooms.find(roomId)?.getSnapshot().isEncrypted ?? false) || (lazy?.isRoomEncrypted(roomId) ?? false),
    knowsRoom: (roomId) => rooms.find(roomId) !== undefined,
    ...(lazy
      ? { encrypt: lazy.encrypt }
      : options.transport?.hostEncrypts === true
        ? { encrypt: sendInTheClear }
        : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });
  if (processor) sendQueue.attach(processor);
  const toDevice = new ToDeviceQueue({
    http,
    store: sync.store,
    scheduler,
    connection: sync.state,
    ...(options.logger ? { logger: options.logger } : {}),
  });
  const crypto = new CryptoService({
    http,
    toDevice,
    ...(lazy ? { lazy } : {}),
    ...(options.cryptoStore ? { store: options.cryptoStore } : {}),
    ...(options.indexedDB ? { indexedDB: options.indexedDB } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });
  // A key that arrives late (to-device, forwarded, backup) updates the event wherever the model holds it.
  crypto.onEventDecrypted((update) => rooms.applyDecrypted(update));
  // In-room verification steps reach the engine from the decrypted sync timelines.
  if (lazy) processor?.subscribe((batch) => crypto.verification.receiveSyncBatch(batch));

  // One cached versions document per client, refreshed beside the capabilities (sync/server-info.ts).
  const getServerVersions = (): Promise<VersionsResponse> => sync.serverInfo.versions();

  const typing = new TypingService({
    http,
    actor,
    rooms,
    running: sync,
    scheduler,
    ...(options.typingTimeoutMs !== undefined ? { timeoutMs: options.typingTimeoutMs } : {}),
  });
  const state = new StateService({ http, actor, rooms, running: sync });
  const onToDevice =
    options.transport?.onToDevice ??
    ((listener: (events: readonly ToDeviceEvent[]) => void): (() => void) =>
      processor?.subscribe((batch) => {
        if (!batch.fromCache && batch.toDevice.length > 0) listener(batch.toDevice);
      }) ?? ((): void => undefined));
  const authenticatedMedia = (): Promise<boolean | undefined> =>
    sync.serverInfo.serverFeatures().then(
      (features) => features.authenticatedMedia,
      () => undefined,
    );
  // Calls and files: each its own chunk, loaded on first use (client/lazy-services.ts, ADR 0038).
  const lazyParts = lazyServices({
    voip: {
      ...{ userId, deviceId, http, scheduler, rooms, sendQueue, toDevice, crypto, state },
      options: options.voip,
    },
    rtc: {
      ...{ userId, deviceId, http, scheduler, rooms, sendQueue, onToDevice, logger: options.logger },
      crypto: lazy ? crypto : undefined,
      sendToDevice: options.transport?.sendToDevice,
      decryptor: lazy,
      serverFeatures: () => sync.serverInfo.serverFeatures(),
      transports: options.rtcTransports,
    },
    files: {
      ...{ userId, http, rooms, sendQueue, crypto, decryptor: lazy, logger: options.logger },
      authenticatedMedia,
    },
    batches: processor,
    onRoomsChanged: (listener) => rooms.onChange(listener),
    onToDevice,
    logger: options.logger,
  });
  const stop = async (): Promise<void> => {
    lazyParts.loadedVoip()?.turn.stop();
    typing.dispose();
    await sync.stop();
  };
  // A session that ends under the client (revoked token, failed refresh, logout) stops it.
  const endSessionWatch =
    options.session?.state.subscribe((state) => {
      if (state.kind === "signed_out") void stop();
    }) ?? ((): void => undefined);

  let tornDown: Promise<void> | undefined;
  const dispose = async (disposeOptions: DisposeOptions = {}): Promise<void> => {
    tornDown ??= (async () => {
      endSessionWatch();
      await stop();
      await lazyParts.dispose();
      sendQueue.dispose();
      toDevice.dispose();
      summary?.dispose();
      rooms.dispose();
      await crypto.close();
    })();
    await tornDown;
    if (disposeOptions.clearStorage) {
      // A logout after a plain dispose finds the store closed: open() is a no-op when it is open.
      await sync.store.open();
      await sync.deleteAllData();
      await crypto.deleteStore();
    }
    await sync.store.close();
  };

  return {
    userId,
    deviceId,
    guest,
    http,
    sync,
    rooms,
    sendQueue,
    toDevice,
    crypto,
    state,
    voip: lazyParts.voip,
    receipts: new ReceiptService({
      http,
      actor,
      rooms,
      running: sync,
      statusOf: (id) => sendQueue.get(id)?.status ?? null,
      // The own receipt clears the room's counts now; its sync echo later changes nothing.
      onSent: (roomId, r) => rooms.applyOwnReceipt(roomId, { ...r, userId, ts: scheduler.now() }),
    }),
    typing,
    presence: new PresenceService({ http, actor }),
    accountData: new AccountDataService({
      http,
      actor,
      rooms,
      scheduler,
      ...(options.accountDataRetryBaseMs !== undefined
        ? { retryBaseMs: options.accountDataRetryBaseMs }
        : {}),
    }),
    profile: new ProfileService({ http, actor, versions: getServerVersions }),
    moderation: new ModerationService({ http, actor, rooms, running: sync }),
    search: new SearchService({ http, rooms, ...(lazy ? { decryptor: lazy } : {}) }),
    directory: new DirectoryService({ http, versions: getServerVersions }),
    rtc: lazyParts.rtc,
    files: lazyParts.files,
    urlPreviews: new UrlPreviewService({
      http,
      rooms,
      now: () => scheduler.now(),
      // v1 media only where the server says it has it; unknown (no answer) tries v1, then v3.
      authenticatedMedia,
    }),
    versions: getServerVersions,
    serverFeatures: () => sync.serverInfo.serverFeatures(),
    onToDevice,
    async start() {
      await sync.start();
      await sendQueue.start();
      toDevice.start();
      // The call services load now, off the first screen's path; TURN starts where calls can happen.
      lazyParts.preload();
    },
    stop,
    dispose,
    async logout() {
      await stop();
      try {
        // Sign-out (and the sign-in flows beside it) loads only when used.
        if (options.session) await (await import("./auth/login")).signOut(http, options.session);
        else
          await apiLogout(http).catch((error: unknown) => {
            // The token is already gone: that is the logout we wanted.
            if (!(error instanceof MatrixError && error.errcode === "M_UNKNOWN_TOKEN")) throw error;
          });
      } finally {
        await dispose({ clearStorage: true });
      }
    },
  };
}
