/**
 * The client facade (GUIDE rule 2): createClient wires the HTTP client (a
 * session's TokenRefresher, or a plain token), the lazily loaded crypto,
 * the room list summary and every room/account service into the core
 * builder (client/core.ts: sync, rooms, send queues, state, calls, files),
 * and owns nothing else. Each service takes only the narrow interfaces it
 * needs; the logic lives in them, not here. The embedded client builds on
 * the same core with fewer services (embedded/createEmbeddedClient.ts).
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
import { TokenRefresher } from "./auth/refresh";
import { buildClient } from "./client/core";
import type { ClientIdentity, ClientParts, OptionalServices } from "./client/core";
import { ClientServiceError } from "./client/errors";
import { AccountDataService } from "./client/services/AccountDataService";
import { CryptoService } from "./client/services/CryptoService";
import { DirectoryService } from "./client/services/DirectoryService";
import { ModerationService } from "./client/services/ModerationService";
import { PresenceService } from "./client/services/PresenceService";
import { ProfileService } from "./client/services/ProfileService";
import { ReceiptService } from "./client/services/ReceiptService";
import { SearchService } from "./client/services/SearchService";
import { TypingService } from "./client/services/TypingService";
import { UrlPreviewService } from "./client/services/UrlPreviewService";
import type { Client, CreateClientOptions } from "./client/types";
import { LazyCrypto } from "./crypto/LazyCrypto";
import type { CryptoMachineFactory } from "./crypto/LazyCrypto";
import { createHttpClient } from "./http/client";
import { RoomListSummaryCache } from "./models/room-list/summary-cache";

export * from "./client/index";
export type { Client, ClientTransport, CreateClientOptions, DisposeOptions } from "./client/types";

/** Builds the lazy loader when crypto is on; throws when it was asked for and cannot be. */
function lazyCryptoOf(options: CreateClientOptions, identity: ClientIdentity): LazyCrypto | undefined {
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

function identityOf(options: CreateClientOptions): ClientIdentity {
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

/** Every optional service, as the full app uses them (crypto per the options). */
function fullParts(options: CreateClientOptions, lazy: LazyCrypto | undefined): ClientParts {
  const logger = options.logger ? { logger: options.logger } : {};
  return {
    ...(lazy ? { lazy } : {}),
    crypto: ({ http, toDevice }) =>
      new CryptoService({
        http,
        toDevice,
        ...(lazy ? { lazy } : {}),
        ...(options.cryptoStore ? { store: options.cryptoStore } : {}),
        ...(options.indexedDB ? { indexedDB: options.indexedDB } : {}),
        ...logger,
      }),
    summary: ({ rooms, store, userId }) => new RoomListSummaryCache({ rooms, store, userId, ...logger }),
    services: ({ http, actor, rooms, sync, sendQueue, scheduler, versions, authenticatedMedia }) => {
      const { userId } = actor;
      const typing = new TypingService({
        http,
        actor,
        rooms,
        running: sync,
        scheduler,
        ...(options.typingTimeoutMs !== undefined ? { timeoutMs: options.typingTimeoutMs } : {}),
      });
      const services = {
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
        profile: new ProfileService({ http, actor, versions }),
        moderation: new ModerationService({ http, actor, rooms, running: sync }),
        search: new SearchService({ http, rooms, ...(lazy ? { decryptor: lazy } : {}) }),
        directory: new DirectoryService({ http, versions }),
        urlPreviews: new UrlPreviewService({
          http,
          rooms,
          now: () => scheduler.now(),
          // v1 media only where the server says it has it; unknown (no answer) tries v1, then v3.
          authenticatedMedia,
        }),
      } satisfies OptionalServices;
      return { services, stop: () => typing.dispose() };
    },
  };
}

/** Creates a client with every service; nothing is fetched until start(). */
export function createClient(options: CreateClientOptions): Client {
  const identity = identityOf(options);
  return buildClient(options, identity, fullParts(options, lazyCryptoOf(options, identity)));
}
