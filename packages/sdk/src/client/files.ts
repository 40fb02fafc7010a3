/**
 * Builds `client.files` from the client's parts: rooms, state writes and
 * membership over the API (not through the room model, which does not know
 * a just-created tree yet), encrypted messages through the send queue,
 * events fetched and decrypted on demand, encrypted attachments from the
 * crypto service, and what sync knows from the room model.
 */
import { ClientServiceError } from "./errors";
import type { Logger } from "../util/logger";
import { inviteUser, joinRoom, kickUser, leaveRoom } from "../api/membership";
import { getCapabilities } from "../api/capabilities";
import { createRoom } from "../api/rooms";
import { redactEvent, sendStateEvent } from "../api/send";
import { getEvent, roomState } from "../api/timeline";
import { FileTreeError } from "../files/errors";
import { FilesService } from "../files/FilesService";
import type { FilesIo } from "../files/io";
import { createTxnIdGenerator } from "../http/txn";
import type { HttpApi } from "../http/types";
import { DECRYPTION_INFO_KEY } from "../crypto/decrypt";
import { isJsonObject, own } from "../models/json";
import type { Rooms } from "../models/room/Rooms";
import type { EventDecryptor } from "../models/timeline/decryptor";
import type { SendQueue } from "../send/SendQueue";
import type { CryptoService } from "./services/CryptoService";

/** What client.files is built from. */
export interface FilesWiring {
  userId: string;
  http: HttpApi;
  rooms: Rooms;
  sendQueue: SendQueue;
  crypto: CryptoService;
  decryptor: EventDecryptor | undefined;
  authenticatedMedia: () => Promise<boolean | undefined>;
  logger: Logger | undefined;
}

/** Resolves once `ready()` holds, checked on every room change; rejects after `timeoutMs`. */
function when(rooms: Rooms, ready: () => boolean, timeoutMs: number, what: string): Promise<void> {
  if (ready()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const stop = rooms.onChange(() => {
      if (!ready()) return;
      clearTimeout(timer);
      stop();
      resolve();
    });
    const timer = setTimeout(() => {
      stop();
      reject(new FileTreeError("timeout", `Timed out waiting for ${what}`));
    }, timeoutMs);
  });
}

export function createFiles(w: FilesWiring): FilesService {
  const { http, rooms } = w;
  const txnId = createTxnIdGenerator();
  const joined = (roomId: string): boolean => rooms.find(roomId)?.getSnapshot().category === "join";
  const io: FilesIo = {
    userId: w.userId,
    serverName: w.userId.slice(w.userId.indexOf(":") + 1),
    createRoom: async (body) => (await createRoom(http, body)).room_id,
    defaultRoomVersion: async () => {
      try {
        return (await getCapabilities(http)).capabilities["m.room_versions"]?.default;
      } catch {
        return undefined;
      }
    },
    sendState: async (roomId, type, stateKey, content) =>
      (await sendStateEvent(http, roomId, type, content, stateKey)).event_id,
    async sendMessage(roomId, content, txnId) {
      // Hidden: the file tree's journal, not the queue, persists the send (under its own txn id),
      // so a reload sends it once.
      const pending = w.sendQueue.send(roomId, "m.room.message", content, {
        hidden: true,
        ...(txnId !== undefined ? { txnId } : {}),
      });
      const settled = await w.sendQueue.whenSettled(pending.txnId);
      if (settled?.eventId !== undefined) return settled.eventId;
      // A refused file message must not block the folder's later sends ('Event blocked by ...').
      if (settled?.status === "not_sent") w.sendQueue.cancel(pending.txnId);
      const cause = settled?.failure?.error;
      if (cause instanceof Error) throw cause;
      throw new ClientServiceError("NOT_SENT", settled?.failure?.message ?? "The file message was not sent");
    },
    redact: async (roomId, eventId, reason) => {
      await redactEvent(http, roomId, eventId, txnId(), reason !== undefined ? { reason } : {});
    },
    fetchState: (roomId) => roomState(http, roomId),
    syncedState: (roomId) => (joined(roomId) ? rooms.find(roomId)?.getSnapshot().state : undefined),
    syncKnowsEvent: (roomId, eventId) => rooms.find(roomId)?.findEvent(eventId) !== undefined,
    whenRoomKnown: (roomId, timeoutMs) =>
      when(
        rooms,
        () => joined(roomId) && rooms.find(roomId)?.getSnapshot().state.get("m.room.create") !== undefined,
        timeoutMs,
        `sync to know ${roomId}`,
      ),
    async fetchEvent(roomId, eventId) {
      const raw = rooms.find(roomId)?.findEvent(eventId) ?? (await getEvent(http, roomId, eventId));
      if (raw.type !== "m.room.encrypted") return raw;
      if (!w.decryptor) return undefined;
      const [clear] = await w.decryptor.decryptEvents(roomId, [raw]);
      if (
        clear === undefined ||
        clear.type === "m.room.encrypted" ||
        isJsonObject(own(clear.unsigned?.[DECRYPTION_INFO_KEY], "failure"))
      ) {
        return undefined;
      }
      // Megolm keeps m.relates_to in the clear part; put it back when the payload lacks it.
      const relates = raw.content["m.relates_to"];
      if (isJsonObject(relates) && !isJsonObject(clear.content["m.relates_to"])) {
        return {
          ...clear,
          content: { ...clear.content, "m.relates_to": relates },
        };
      }
      return clear;
    },
    upload: (data, options = {}) =>
      w.crypto.uploadAttachment(data, {
        ...(options.onProgress ? { onUploadProgress: options.onProgress } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      }),
    async download(file, options = {}) {
      const authenticatedMedia = await w.authenticatedMedia();
      return w.crypto.downloadAttachment(file, {
        ...(authenticatedMedia !== undefined ? { authenticatedMedia } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
    },
    invite: async (roomId, userId) => {
      await inviteUser(http, roomId, userId);
      // Files sent before the invite are readable only with the earlier keys (MSC4268).
      await w.crypto
        .shareRoomHistory(roomId, userId)
        .catch((error: unknown) => w.logger?.warn(`files: room key history not shared in ${roomId}`, error));
    },
    join: async (roomId) => {
      const inviter = rooms.find(roomId)?.getSnapshot().state.get("m.room.member", w.userId)?.sender;
      await joinRoom(http, roomId);
      if (inviter === undefined || inviter === w.userId) return;
      await w.crypto
        .acceptRoomHistory(roomId, inviter)
        .catch((error: unknown) =>
          w.logger?.warn(`files: room key history not imported in ${roomId}`, error),
        );
    },
    leave: async (roomId) => {
      await leaveRoom(http, roomId);
    },
    kick: async (roomId, userId, reason) => {
      await kickUser(http, roomId, userId, reason);
    },
    joinedRoomIds: () =>
      [...rooms.all.getSnapshot().values()]
        .filter((r) => r.getSnapshot().category === "join")
        .map((r) => r.roomId),
    invitedRoomIds: () =>
      [...rooms.all.getSnapshot().values()]
        .filter((r) => r.getSnapshot().category === "invite")
        .map((r) => r.roomId),
    anyState: (roomId) => rooms.find(roomId)?.getSnapshot().state,
    onChange: (listener) => rooms.onChange(listener),
    log: (message) => w.logger?.warn(message),
  };
  return new FilesService(io);
}
