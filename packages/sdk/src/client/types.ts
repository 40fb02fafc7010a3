/**
 * The client's public types: the options of createClient, the transport
 * that replaces HTTP (embedded mode), and the Client surface every way of
 * building a client returns (client.ts over HTTP, embedded/ over the widget
 * API), whichever services it was built with (client/core.ts).
 */
import type { ToDeviceEvent } from "../api/types/events";
import type { VersionsResponse } from "../api/types/server";
import type { Session } from "../auth/session";
import type { CryptoStoreOptions } from "../crypto/CryptoMachine";
import type { CryptoMachineFactory } from "../crypto/LazyCrypto";
import type { DatabaseDeleter } from "../crypto/store";
import type { FilesService } from "../files/FilesService";
import type { HttpClientOptions } from "../http/client";
import type { HttpApi } from "../http/types";
import type { Rooms } from "../models/room/Rooms";
import type { KeyTarget as RtcKeyTarget } from "../rtc/keys/transports";
import type { RtcTransport } from "../rtc/membership/types";
import type { RtcService } from "../rtc/RtcService";
import type { SendQueue } from "../send/SendQueue";
import type { ToDeviceQueue } from "../send/ToDeviceQueue";
import type { Store } from "../store/Store";
import type { ServerFeatures } from "../sync/server-features";
import type { SyncService, SyncServiceOptions } from "../sync/SyncService";
import type { Logger } from "../util/logger";
import type { Scheduler } from "../util/scheduler";
import type { VoipOptions, VoipService } from "../voip/VoipService";
import type { AccountDataService } from "./services/AccountDataService";
import type { CryptoService } from "./services/CryptoService";
import type { DirectoryService } from "./services/DirectoryService";
import type { ModerationService } from "./services/ModerationService";
import type { PresenceService } from "./services/PresenceService";
import type { ProfileService } from "./services/ProfileService";
import type { ReceiptService } from "./services/ReceiptService";
import type { SearchService } from "./services/SearchService";
import type { StateService } from "./services/StateService";
import type { TypingService } from "./services/TypingService";
import type { UrlPreviewService } from "./services/UrlPreviewService";

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
