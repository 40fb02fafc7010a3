/**
 * Builds `client.rtc` from the client's parts: room state from the room
 * model, sync batches and decrypted to-device events from the processor,
 * the server's features from the cached versions document, key and ring
 * room events through the send queue (encrypted in encrypted rooms, hidden:
 * no local echo, not persisted; awaited until settled), and Olm-encrypted to-device keys through the crypto
 * service when crypto is on, which also hands over room key events that
 * decrypt late. Kept here so the facade stays one line.
 */
import type { Logger } from "../util/logger";
import type { ToDeviceEvent } from "../api/types/events";
import type { EventDecryptor } from "../models/timeline/decryptor";
import type { RtcTransport } from "../rtc/membership/types";
import { RtcService } from "../rtc/RtcService";
import type { RtcServiceOptions } from "../rtc/RtcService";
import type { ServerFeatures } from "../sync/server-features";
import { sendSignalling } from "./call-wiring";
import type { CallWiringBase } from "./call-wiring";
import type { CryptoService } from "./services/CryptoService";

export interface RtcWiring extends CallWiringBase {
  /** The crypto service when crypto is on. */
  crypto: CryptoService | undefined;
  /** Encrypted to-device from a transport that encrypts itself (embedded mode); wins over crypto. */
  sendToDevice: RtcServiceOptions["sendToDevice"];
  /** The room event decryptor when crypto is on. */
  decryptor: EventDecryptor | undefined;
  onToDevice: (listener: (events: readonly ToDeviceEvent[]) => void) => () => void;
  serverFeatures: () => Promise<ServerFeatures>;
  transports: readonly RtcTransport[] | undefined;
  logger: Logger | undefined;
}

export function createRtc(w: RtcWiring): RtcService {
  const { crypto, logger, sendQueue } = w;
  return new RtcService({
    http: w.http,
    userId: w.userId,
    deviceId: w.deviceId ?? "",
    scheduler: w.scheduler,
    roomState: (roomId) => w.rooms.find(roomId)?.getSnapshot().state,
    onSyncBatch: (listener) => w.batches?.subscribe(listener) ?? ((): void => undefined),
    onToDevice: w.onToDevice,
    serverFeatures: w.serverFeatures,
    ...(w.sendToDevice
      ? { sendToDevice: w.sendToDevice }
      : crypto
        ? {
            // The devices it could not encrypt for go back to the key transport, which tries them again.
            sendToDevice: async (type, targets, content) =>
              (await crypto.sendToDevice(type, targets, content)).skipped,
          }
        : {}),
    // Signalling, not something the user wrote: no local echo in the timeline.
    sendRoomEvent: (roomId, type, content) => sendSignalling(sendQueue, roomId, type, content),
    ...(w.decryptor
      ? {
          redecrypt: async (roomId, event) => (await w.decryptor?.decryptEvents(roomId, [event]))?.[0],
        }
      : {}),
    ...(crypto
      ? { onLateDecrypted: (listener) => crypto.onEventDecrypted((u) => listener(u.roomId, u.event)) }
      : {}),
    ...(w.transports ? { transports: w.transports } : {}),
    ...(logger ? { warn: (message: string, error?: unknown) => logger.warn(message, error) } : {}),
  });
}
