/**
 * The services the embedded client is built with (client/core.ts's
 * ClientParts): only what its room and call views use. Kept: URL previews
 * (the timeline asks for link cards; through the host they answer
 * M_UNRECOGNIZED, remembered per URL) and moderation (the composer's /join,
 * /invite, /ban...: a join of another room must give the spec's 'Unknown
 * room: {room}', which the transport raises). Left out, each a stand-in
 * whose calls reject with 'The <name> service is not available in an
 * embedded client' (ClientServiceError "NOT_AVAILABLE"): receipts and
 * typing (the widget API carries neither, so the views send none),
 * presence, account data, profile, search and the directory. No room list
 * summary (the page shows no room list).
 *
 * Crypto is off (the host encrypts and decrypts): a stand-in with
 * `enabled` false that answers as a CryptoService with crypto off does for
 * what the kept layers touch (no encrypted room known to the engine, no
 * late decryptions, closing is a no-op; the engine's calls fail with the
 * spec's 'does not support encryption' messages; attachments need no
 * engine and still work), and the clear error for the rest (devices,
 * verification, cross-signing, backup, recovery).
 */
import type { ClientParts } from "../client/core";
import type { CryptoService } from "../client/services/CryptoService";
import { ModerationService } from "../client/services/ModerationService";
import { UrlPreviewService } from "../client/services/UrlPreviewService";
import { unavailableService } from "../client/unavailable";
import { CryptoError, ROOM_ENCRYPTION_UNSUPPORTED, TO_DEVICE_ENCRYPTION_UNSUPPORTED } from "../crypto/errors";
import type { HttpApi } from "../http/types";

/** Where a left-out service's error says it is missing. */
export const EMBEDDED_CLIENT = "an embedded client";

const noop = (): void => undefined;

/** Crypto off: see the file overview. */
function hostCrypto(http: HttpApi): CryptoService {
  const refuse = (message: string) => (): Promise<never> =>
    Promise.reject(new CryptoError("crypto_disabled", message));
  return unavailableService<CryptoService>("crypto", EMBEDDED_CLIENT, {
    enabled: false,
    loaded: false,
    isRoomEncrypted: () => false,
    onLoaded: () => noop,
    onEventDecrypted: () => noop,
    machine: refuse(ROOM_ENCRYPTION_UNSUPPORTED),
    encryptRoomEvent: refuse(ROOM_ENCRYPTION_UNSUPPORTED),
    sendToDevice: refuse(TO_DEVICE_ENCRYPTION_UNSUPPORTED),
    shareRoomHistory: () => Promise.resolve(false),
    acceptRoomHistory: () => Promise.resolve(false),
    // The attachment cipher is Web Crypto, no engine: loaded on first use, as in the full client.
    uploadAttachment: async (data, options) =>
      (await import("../crypto/attachments/transfer")).uploadEncryptedAttachment(http, data, options),
    downloadAttachment: async (file, options) =>
      (await import("../crypto/attachments/transfer")).downloadEncryptedAttachment(http, file, options),
    flush: () => Promise.resolve(),
    close: () => Promise.resolve(),
    deleteStore: () => Promise.resolve(),
  });
}

/** The embedded client's parts: crypto off, URL previews and moderation, the rest left out. */
export function embeddedParts(): ClientParts {
  const missing = <T extends object>(name: string): T => unavailableService<T>(name, EMBEDDED_CLIENT);
  return {
    crypto: ({ http }) => hostCrypto(http),
    services: ({ http, actor, rooms, sync, scheduler, authenticatedMedia }) => ({
      services: {
        receipts: missing("receipts"),
        typing: missing("typing"),
        presence: missing("presence"),
        accountData: missing("account data"),
        profile: missing("profile"),
        moderation: new ModerationService({ http, actor, rooms, running: sync }),
        search: missing("search"),
        directory: missing("directory"),
        urlPreviews: new UrlPreviewService({ http, rooms, now: () => scheduler.now(), authenticatedMedia }),
      },
    }),
  };
}
