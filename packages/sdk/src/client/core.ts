/**
 * The client's core builder: wires the sync service, the room model, the
 * send queues, the state service and the lazily loaded calls and files
 * (ADR 0038) over a given HTTP layer, and takes every other service from
 * its caller (`ClientParts`). createClient (client.ts) passes the full set;
 * the embedded client (embedded/) passes only what its pages use, so a
 * bundle that builds only that never carries the rest (crypto and
 * verification, the room list summary, moderation, search...). A service
 * left out is an `unavailableService` (unavailable.ts): same type, and a
 * call on it throws a ClientServiceError "NOT_AVAILABLE" that names it.
 *
 * Nothing here imports a service it does not need itself: what a caller
 * may leave out reaches this file as a type only.
 */
import { logout as apiLogout } from "../api/login";
import type { ToDeviceEvent } from "../api/types/events";
import type { VersionsResponse } from "../api/types/server";
import type { LazyCrypto } from "../crypto/LazyCrypto";
import { MatrixError } from "../http/errors";
import type { HttpApi } from "../http/types";
import { Rooms } from "../models/room/Rooms";
import type { RoomListSummaryCache } from "../models/room-list/summary-cache";
import { SendQueue } from "../send/SendQueue";
import { ToDeviceQueue } from "../send/ToDeviceQueue";
import type { EncryptFn } from "../send/types";
import { MemoryStore } from "../store/MemoryStore";
import type { Store } from "../store/Store";
import { SyncProcessor } from "../sync/processor/SyncProcessor";
import { SyncService } from "../sync/SyncService";
import { realScheduler } from "../util/scheduler";
import type { Scheduler } from "../util/scheduler";
import { lazyServices } from "./lazy-services";
import type { CryptoService } from "./services/CryptoService";
import { StateService } from "./services/StateService";
import type { Actor } from "./services/types";
import type { Client, CreateClientOptions, DisposeOptions } from "./types";

/** Who the client acts as, and the HTTP layer (or its replacement) it acts through. */
export interface ClientIdentity {
  http: HttpApi;
  userId: string;
  deviceId: string | undefined;
  guest: boolean;
}

/** The services a caller of buildClient may build or leave out. */
export type OptionalServices = Pick<
  Client,
  | "receipts"
  | "typing"
  | "presence"
  | "accountData"
  | "profile"
  | "moderation"
  | "search"
  | "directory"
  | "urlPreviews"
>;

/** What the optional services are built over. */
export interface ServiceWiring {
  http: HttpApi;
  actor: Actor;
  rooms: Rooms;
  sync: SyncService;
  sendQueue: SendQueue;
  scheduler: Scheduler;
  /** The crypto loader when crypto is on (search decrypts its results with it). */
  lazy: LazyCrypto | undefined;
  /** The cached versions document. */
  versions: () => Promise<VersionsResponse>;
  /** Whether the server has authenticated media (v1); undefined when unknown. */
  authenticatedMedia: () => Promise<boolean | undefined>;
}

/** The parts buildClient takes from its caller (the full set in createClient). */
export interface ClientParts {
  /** The crypto loader (decrypt hook, encrypt, decryptor); absent when crypto is off. */
  lazy?: LazyCrypto;
  /** The crypto service over the to-device queue (with crypto off, one whose `enabled` is false). */
  crypto(w: { http: HttpApi; toDevice: ToDeviceQueue }): CryptoService;
  /** The room list summary, read before the stored snapshot (a client that shows a room list). */
  summary?(w: { rooms: Rooms; store: Store; userId: string }): RoomListSummaryCache;
  /** The optional services, and what stops their timers (typing renewals) on stop(). */
  services(w: ServiceWiring): { services: OptionalServices; stop?: () => void };
}

/** The host encrypts (ClientTransport.hostEncrypts): the send queue hands it the event as written. */
const sendInTheClear: EncryptFn = (_roomId, type, content) => Promise.resolve({ type, content });

/** Builds a client over `identity` with the caller's parts; nothing is fetched until start(). */
export function buildClient(
  options: CreateClientOptions,
  identity: ClientIdentity,
  parts: ClientParts,
): Client {
  const { http, userId, deviceId, guest } = identity;
  const { lazy } = parts;
  const scheduler = options.scheduler ?? realScheduler;
  const actor: Actor = { userId, guest };
  const logger = options.logger ? { logger: options.logger } : {};
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
    ...logger,
    processor: (store) =>
      (made.processor = new SyncProcessor({
        store,
        ...logger,
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
    ...logger,
  });
  // The room list summary: read before the stored snapshot, staged while running (summary-cache.ts).
  const summary = guest ? undefined : parts.summary?.({ rooms, store: sync.store, userId });
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
    ...logger,
  });
  if (processor) sendQueue.attach(processor);
  const toDevice = new ToDeviceQueue({
    http,
    store: sync.store,
    scheduler,
    connection: sync.state,
    ...logger,
  });
  const crypto = parts.crypto({ http, toDevice });
  // A key that arrives late (to-device, forwarded, backup) updates the event wherever the model holds it.
  crypto.onEventDecrypted((update) => rooms.applyDecrypted(update));
  // In-room verification steps reach the engine from the decrypted sync timelines.
  if (lazy) processor?.subscribe((batch) => crypto.verification.receiveSyncBatch(batch));

  // One cached versions document per client, refreshed beside the capabilities (sync/server-info.ts).
  const versions = (): Promise<VersionsResponse> => sync.serverInfo.versions();
  const serverFeatures = (): ReturnType<Client["serverFeatures"]> => sync.serverInfo.serverFeatures();
  const authenticatedMedia = (): Promise<boolean | undefined> =>
    serverFeatures().then(
      (features) => features.authenticatedMedia,
      () => undefined,
    );
  const state = new StateService({ http, actor, rooms, running: sync });
  const built = parts.services({
    ...{ http, actor, rooms, sync, sendQueue, scheduler, lazy },
    ...{ versions, authenticatedMedia },
  });
  const onToDevice =
    options.transport?.onToDevice ??
    ((listener: (events: readonly ToDeviceEvent[]) => void): (() => void) =>
      processor?.subscribe((batch) => {
        if (!batch.fromCache && batch.toDevice.length > 0) listener(batch.toDevice);
      }) ?? ((): void => undefined));
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
      serverFeatures,
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
    built.stop?.();
    await sync.stop();
  };
  // A session that ends under the client (revoked token, failed refresh, logout) stops it.
  const endSessionWatch =
    options.session?.state.subscribe((s) => {
      if (s.kind === "signed_out") void stop();
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
    ...{ userId, deviceId, guest, http, sync, rooms, sendQueue, toDevice, crypto, state },
    ...built.services,
    voip: lazyParts.voip,
    rtc: lazyParts.rtc,
    files: lazyParts.files,
    versions,
    serverFeatures,
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
        if (options.session) await (await import("../auth/login")).signOut(http, options.session);
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
