/**
 * Room key history on invite (MSC4268). The inviter's engine gathers the
 * room's Megolm keys it may share (history visibility shared or
 * world_readable) into one encrypted bundle; we upload it to the media
 * repository and the engine Olm-encrypts its location and key to each of the
 * invitee's devices as a to-device `io.element.msc4268.room_key_bundle`
 * `{ room_id, file }`. The invitee, on joining a room it was invited to,
 * looks for a bundle from its inviter (whose device keys are queried first,
 * so the engine can check the sending device), downloads and imports it; a
 * bundle that arrives after the join is imported when it arrives, while the
 * engine still records the room as waiting. Imported keys go through the
 * engine's room-key callback, so events waiting for them decrypt in place.
 *
 * Detected from the engine (crypto-wasm 15 and later have the calls); an
 * engine without them shares and imports nothing. No server feature is
 * needed beyond media upload and to-device messages.
 */
import type { OlmMachine } from "@matrix-org/matrix-sdk-crypto-wasm";
import { uploadContent } from "../api/media";
import type { ToDeviceEvent } from "../api/types/events";
import type { HttpApi } from "../http/types";
import type { Logger } from "../util/logger";
import { roomIdOrUndefined, userIdOrUndefined, userIds } from "./ids";
import type { EncryptorDeps } from "./RoomEncryptor";
import { ensureOlmSessions } from "./RoomEncryptor";

/** The MSC4268 to-device event type (unstable prefix). */
export const ROOM_KEY_BUNDLE_EVENT = "io.element.msc4268.room_key_bundle";

/** A bundle is accepted this long after the join it waits for (the MSC's guidance: a day). */
export const BUNDLE_WAIT_MS = 24 * 60 * 60 * 1000;

/** What the bundle layer needs beyond the encryptor's handles. */
export interface HistoryBundleDeps extends EncryptorDeps {
  http: HttpApi;
  /** Downloads an mxc URI's bytes (authenticated media when the server has it). */
  download(mxc: string): Promise<Uint8Array>;
  logger: Pick<Logger, "warn">;
}

/** Whether this engine can build and import MSC4268 bundles. */
export function supportsHistoryBundles(machine: OlmMachine): boolean {
  const m = machine as unknown as Record<string, unknown>;
  return (
    typeof m["buildRoomKeyBundle"] === "function" &&
    typeof m["shareRoomKeyBundleData"] === "function" &&
    typeof m["getReceivedRoomKeyBundleData"] === "function" &&
    typeof m["receiveRoomKeyBundle"] === "function"
  );
}

/** Builds, uploads and sends MSC4268 bundles, and imports the ones we receive. */
export class HistoryBundles {
  constructor(private readonly deps: HistoryBundleDeps) {}

  /** Whether the engine supports bundles. */
  get supported(): boolean {
    return supportsHistoryBundles(this.deps.machine);
  }

  /**
   * Shares the room's history keys with `userId`'s devices (call after
   * inviting them). False when there is nothing to share or the engine
   * cannot; the caller checks encryption and history visibility.
   */
  async share(roomId: string, userId: string): Promise<boolean> {
    const { engine, machine, outgoing, http } = this.deps;
    if (!this.supported) return false;
    const room = roomIdOrUndefined(engine, roomId);
    if (!room) return false;
    const attachment = await machine.buildRoomKeyBundle(room);
    if (!attachment) return false;
    const bytes = attachment.encryptedData;
    const info = attachment.mediaEncryptionInfo;
    attachment.free();
    const { content_uri: url } = await uploadContent(http, bytes, {
      contentType: "application/octet-stream",
    });
    // The bundle's location travels over Olm: the invitee's device list and sessions first.
    await ensureOlmSessions(this.deps, [userId]);
    const user = userIdOrUndefined(engine, userId);
    const target = roomIdOrUndefined(engine, roomId);
    if (!user || !target) return false;
    const requests = await machine.shareRoomKeyBundleData(
      user,
      target,
      url,
      info,
      engine.CollectStrategy.allDevices(),
    );
    for (const request of requests) await outgoing.send(request);
    return requests.length > 0;
  }

  /**
   * After joining a room `inviterId` invited us to: imports their bundle
   * when it is here, else records the room as waiting so a bundle arriving
   * later (`onToDevice`) is imported. True when keys were imported.
   */
  async accept(roomId: string, inviterId: string): Promise<boolean> {
    const { engine, machine } = this.deps;
    if (!this.supported) return false;
    const room = roomIdOrUndefined(engine, roomId);
    const inviter = userIdOrUndefined(engine, inviterId);
    if (!room || !inviter) return false;
    await machine.storeRoomPendingKeyBundle(room, inviter);
    return this.importFrom(roomId, inviterId);
  }

  /** Imports a bundle that arrived for a room still waiting for one from its sender. */
  async onToDevice(events: readonly ToDeviceEvent[]): Promise<void> {
    if (!this.supported) return;
    const { engine, machine } = this.deps;
    for (const event of events) {
      if (event.type !== ROOM_KEY_BUNDLE_EVENT) continue;
      const roomId = event.content["room_id"];
      const room = typeof roomId === "string" ? roomIdOrUndefined(engine, roomId) : undefined;
      if (!room || typeof roomId !== "string") continue;
      const pending = await machine.getPendingKeyBundleDetailsForRoom(room);
      if (!pending) continue;
      const inviter = pending.inviterId.toString();
      const fresh = Date.now() - pending.inviteAcceptedAtMillis < BUNDLE_WAIT_MS;
      pending.free();
      if (inviter !== event.sender || !fresh) continue;
      try {
        await this.importFrom(roomId, inviter);
      } catch (error) {
        this.deps.logger.warn(`crypto: importing the room key bundle of ${roomId} failed`, error);
      }
    }
  }

  private async importFrom(roomId: string, inviterId: string): Promise<boolean> {
    const { engine, machine, outgoing } = this.deps;
    // The engine checks the bundle's sending device against the inviter's cross-signing identity: fetch it fresh.
    const query = machine.queryKeysForUsers(userIds(engine, [inviterId]));
    await outgoing.send(query);
    const room = roomIdOrUndefined(engine, roomId);
    const inviter = userIdOrUndefined(engine, inviterId);
    if (!room || !inviter) return false;
    const data = await machine.getReceivedRoomKeyBundleData(room, inviter);
    if (!data) return false;
    const bytes = await this.deps.download(data.url);
    await machine.receiveRoomKeyBundle(data, bytes);
    const done = roomIdOrUndefined(engine, roomId);
    if (done) await machine.clearRoomPendingKeyBundle(done);
    return true;
  }
}
