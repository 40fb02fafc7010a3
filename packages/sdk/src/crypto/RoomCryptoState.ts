/**
 * What the crypto layer needs to know about rooms, kept from sync batches
 * without the engine: which rooms are encrypted and with which settings
 * (m.room.encryption), their history visibility, and each member's
 * membership. The encryptor reads it to pick the key recipients; the lazy
 * loader reads it to decide when the engine is first needed. Pure and cheap,
 * so it runs on every batch even before the WebAssembly is loaded.
 */
import type { ClientEventWithoutRoomId, StrippedStateEvent } from "../api/types/events";
import type { ParsedSync } from "../sync/validate/types";

/** A room's m.room.encryption settings, validated. */
export interface RoomEncryptionSettings {
  algorithm: string;
  /** Rotate the session after this many ms (rotation_period_ms). */
  rotationPeriodMs?: number;
  /** Rotate the session after this many messages (rotation_period_msgs). */
  rotationPeriodMsgs?: number;
}

/** The Megolm algorithm name, the only room algorithm the engine speaks. */
export const MEGOLM_ALGORITHM = "m.megolm.v1.aes-sha2";

interface RoomEntry {
  encryption?: RoomEncryptionSettings;
  historyVisibility: string;
  /** user id to membership (join, invite, leave, ban, knock). */
  members: Map<string, string>;
}

/** What one batch changed, so the caller tracks new users only. */
export interface RoomStateChanges {
  /** Rooms that became encrypted in this batch. */
  newlyEncrypted: string[];
  /** Users whose membership changed in an encrypted room. */
  memberChanges: Set<string>;
}

type StateLike = Pick<StrippedStateEvent, "type" | "state_key" | "content"> | ClientEventWithoutRoomId;

function positiveNumber(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : undefined;
}

/** Validates m.room.encryption content; undefined when it names no algorithm. */
export function parseEncryptionContent(content: unknown): RoomEncryptionSettings | undefined {
  if (content === null || typeof content !== "object" || Array.isArray(content)) return undefined;
  const c = content as Record<string, unknown>;
  const algorithm = c["algorithm"];
  if (typeof algorithm !== "string" || algorithm.length === 0) return undefined;
  const ms = positiveNumber(c["rotation_period_ms"]);
  const msgs = positiveNumber(c["rotation_period_msgs"]);
  return {
    algorithm,
    ...(ms !== undefined ? { rotationPeriodMs: ms } : {}),
    ...(msgs !== undefined ? { rotationPeriodMsgs: Math.floor(msgs) } : {}),
  };
}

/** Room facts for the crypto layer, fed by `ingest` with each batch. */
export class RoomCryptoState {
  private readonly rooms = new Map<string, RoomEntry>();

  /** Applies a batch's state (state, state_after, timeline, invite state). */
  ingest(batch: ParsedSync): RoomStateChanges {
    const changes: RoomStateChanges = { newlyEncrypted: [], memberChanges: new Set() };
    for (const [roomId, room] of batch.rooms.join) {
      this.applyAll(roomId, room.state, changes);
      this.applyAll(roomId, room.timeline.events, changes);
      if (room.stateAfter) this.applyAll(roomId, room.stateAfter, changes);
    }
    for (const [roomId, room] of batch.rooms.leave) {
      this.applyAll(roomId, room.state, changes);
      this.applyAll(roomId, room.timeline.events, changes);
      if (room.stateAfter) this.applyAll(roomId, room.stateAfter, changes);
    }
    for (const [roomId, room] of batch.rooms.invite) this.applyAll(roomId, room.inviteState, changes);
    return changes;
  }

  /** Applies state events of one room in order (also for members loaded out of band). */
  applyAll(roomId: string, events: readonly StateLike[], changes?: RoomStateChanges): void {
    for (const event of events) this.apply(roomId, event, changes);
  }

  private entry(roomId: string): RoomEntry {
    let entry = this.rooms.get(roomId);
    if (!entry) {
      entry = { historyVisibility: "shared", members: new Map() };
      this.rooms.set(roomId, entry);
    }
    return entry;
  }

  private apply(roomId: string, event: StateLike, changes?: RoomStateChanges): void {
    if (typeof event.state_key !== "string") return;
    const content: unknown = event.content;
    if (event.type === "m.room.encryption" && event.state_key === "") {
      const settings = parseEncryptionContent(content);
      if (!settings) return;
      const entry = this.entry(roomId);
      // Encryption is never switched off again: a later event only updates the settings.
      if (!entry.encryption) {
        changes?.newlyEncrypted.push(roomId);
        for (const [userId, m] of entry.members)
          if (m === "join" || m === "invite") changes?.memberChanges.add(userId);
      }
      entry.encryption = settings;
    } else if (event.type === "m.room.history_visibility" && event.state_key === "") {
      const hv = (content as Record<string, unknown>)["history_visibility"];
      if (typeof hv === "string") this.entry(roomId).historyVisibility = hv;
    } else if (event.type === "m.room.member") {
      const membership = (content as Record<string, unknown>)["membership"];
      if (typeof membership !== "string") return;
      const entry = this.entry(roomId);
      if (entry.members.get(event.state_key) === membership) return;
      entry.members.set(event.state_key, membership);
      if (entry.encryption) changes?.memberChanges.add(event.state_key);
    }
  }

  /** Whether the room has m.room.encryption. */
  isEncrypted(roomId: string): boolean {
    return this.rooms.get(roomId)?.encryption !== undefined;
  }

  /** The room's encryption settings, when encrypted. */
  encryption(roomId: string): RoomEncryptionSettings | undefined {
    return this.rooms.get(roomId)?.encryption;
  }

  /** The room's history visibility; "shared" (the spec's default) when unknown. */
  historyVisibility(roomId: string): string {
    return this.rooms.get(roomId)?.historyVisibility ?? "shared";
  }

  /** The membership of a user in a room, when known. */
  membership(roomId: string, userId: string): string | undefined {
    return this.rooms.get(roomId)?.members.get(userId);
  }

  /**
   * The users who get the room key: joined members, and invited ones unless
   * the history visibility is "joined" (an invitee could not read those
   * messages anyway).
   */
  recipients(roomId: string): string[] {
    const entry = this.rooms.get(roomId);
    if (!entry) return [];
    const withInvited = entry.historyVisibility !== "joined";
    const out: string[] = [];
    for (const [userId, m] of entry.members) {
      if (m === "join" || (withInvited && m === "invite")) out.push(userId);
    }
    return out;
  }

  /** Every joined or invited member of an encrypted room: the users whose devices we track. */
  usersToTrack(): string[] {
    const users = new Set<string>();
    for (const entry of this.rooms.values()) {
      if (!entry.encryption) continue;
      for (const [userId, m] of entry.members) if (m === "join" || m === "invite") users.add(userId);
    }
    return [...users];
  }

  /** Whether any known room is encrypted. */
  hasEncryptedRooms(): boolean {
    for (const entry of this.rooms.values()) if (entry.encryption) return true;
    return false;
  }
}
