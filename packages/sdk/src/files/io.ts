/**
 * The narrow interface the file tree takes from the client: rooms and state
 * over HTTP, encrypted sends through the send queue, encrypted attachments,
 * membership, and what sync knows. client/files.ts wires it to the real
 * parts; unit tests give an in-memory fake.
 */
import type { ClientEventWithoutRoomId } from "../api/types/events";
import type { CreateRoomRequest } from "../api/types/rooms";
import type { EncryptedFile } from "../crypto/attachments/wire-types";
import type { UploadProgress } from "../http/types";
import type { RoomState } from "../models/room/RoomState";

/** Options of an upload. */
export interface FilesUploadOptions {
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
}

/** Options of a download. */
export interface FilesDownloadOptions {
  signal?: AbortSignal;
}

/** What the file tree needs from the client. */
export interface FilesIo {
  readonly userId: string;
  /** The server part of the user id: the `via` of space links. */
  readonly serverName: string;
  createRoom(body: CreateRoomRequest): Promise<string>;
  /** The room version the server gives new rooms (capabilities' m.room_versions), undefined when unknown. */
  defaultRoomVersion(): Promise<string | undefined>;
  /** Sends a state event now (state is never encrypted); its event id. */
  sendState(
    roomId: string,
    type: string,
    stateKey: string,
    content: Record<string, unknown>,
  ): Promise<string>;
  /**
   * Sends a room message, encrypted in an encrypted room; its event id.
   * With `txnId` the same message sent again (after a reload) is the same
   * event. A refusal or failure rejects with the server's error.
   */
  sendMessage(roomId: string, content: Record<string, unknown>, txnId?: string): Promise<string>;
  redact(roomId: string, eventId: string, reason?: string): Promise<void>;
  /** The room's full current state from the server (GET /state). */
  fetchState(roomId: string): Promise<ClientEventWithoutRoomId[]>;
  /** The state sync holds for a joined room, or undefined while sync does not know it. */
  syncedState(roomId: string): RoomState | undefined;
  /** Whether sync has delivered this event of the room (its own writes then need no overlay). */
  syncKnowsEvent(roomId: string, eventId: string): boolean;
  /** Resolves once sync knows the room (encrypted sends need its members); rejects after the time-out. */
  whenRoomKnown(roomId: string, timeoutMs: number): Promise<void>;
  /** The event in clear form (decrypted when needed), or undefined when missing or undecryptable. */
  fetchEvent(roomId: string, eventId: string): Promise<ClientEventWithoutRoomId | undefined>;
  /** Encrypts and uploads bytes; the EncryptedFile for the event. */
  upload(data: Uint8Array, options?: FilesUploadOptions): Promise<EncryptedFile>;
  /** Downloads and decrypts an (untrusted) EncryptedFile. */
  download(file: unknown, options?: FilesDownloadOptions): Promise<Uint8Array>;
  invite(roomId: string, userId: string): Promise<void>;
  join(roomId: string): Promise<void>;
  leave(roomId: string): Promise<void>;
  kick(roomId: string, userId: string, reason: string): Promise<void>;
  /** Rooms sync has the user joined to, and invited to. */
  joinedRoomIds(): readonly string[];
  invitedRoomIds(): readonly string[];
  /** The stripped (invite) or full state of any room sync knows. */
  anyState(roomId: string): RoomState | undefined;
  /** Calls `listener` with the rooms a sync batch changed; returns the unsubscribe. */
  onChange(listener: (roomIds: ReadonlySet<string>) => void): () => void;
  log(message: string): void;
}
