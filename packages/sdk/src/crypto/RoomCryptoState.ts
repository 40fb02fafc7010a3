/**
 * What the crypto layer needs to know about rooms, kept from sync batches
 * without the engine: which rooms are encrypted and with which settings
 * (m.room.encryption), their history visibility, and each member's
 * membership. The encryptor reads it to pick the key recipients; the lazy
 * loader reads it to decide when the engine is first needed. Pure and cheap,
 * so it runs on every batch even before the WebAssembly is loaded.
 *
 * It also keeps the history of the own user's membership (each m.room.member
 * event for them, with its time and previous membership), so the decryptor
 * can tell "we were not in the room when this was sent" on servers that do
 * not put the viewer's membership in `unsigned.membership` (MSC4115, v1.11;
 * Synapse 1.67 never does).
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
  /** The own user's membership changes, oldest first. */
  own?: OwnMembership[];
}

/** One m.room.member event of the own user. */
interface OwnMembership {
  eventId: string;
  ts: number;
  membership: string;
  /** unsigned.prev_content.membership, when the server sent it. */
  prev?: string;
}

/** Options of RoomCryptoState. */
export interface RoomCryptoStateOptions {
  /** The user whose membership history is kept (for membershipAt). */
  ownUserId?: string;
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
  private readonly ownUserId: string | undefined;

  constructor(options: RoomCryptoStateOptions = {}) {
    this.ownUserId = options.ownUserId;
  }

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
      this.recordOwn(roomId, event, membership);
      const entry = this.entry(roomId);
      if (entry.members.get(event.state_key) === membership) return;
      entry.members.set(event.state_key, membership);
      if (entry.encryption) changes?.memberChanges.add(event.state_key);
    }
  }

  /**
   * Adds own membership events seen outside sync (a /messages or /context
   * page) to the history, without touching the current members.
   */
  recordHistory(roomId: string, events: readonly ClientEventWithoutRoomId[]): void {
    for (const event of events) {
      if (event.type !== "m.room.member") continue;
      const membership = (event.content as Record<string, unknown>)["membership"];
      if (typeof membership === "string") this.recordOwn(roomId, event, membership);
    }
  }

  private recordOwn(roomId: string, event: StateLike, membership: string): void {
    if (this.ownUserId === undefined || event.state_key !== this.ownUserId) return;
    const full = event as Partial<ClientEventWithoutRoomId>;
    if (typeof full.event_id !== "string" || typeof full.origin_server_ts !== "number") return;
    const entry = this.entry(roomId);
    const own = (entry.own ??= []);
    if (own.some((m) => m.eventId === full.event_id)) return;
    const prevContent: unknown = full.unsigned?.prev_content;
    const prev =
      typeof prevContent === "object" && prevContent !== null
        ? (prevContent as Record<string, unknown>)["membership"]
        : undefined;
    own.push({
      eventId: full.event_id,
      ts: full.origin_server_ts,
      membership,
      ...(typeof prev === "string" ? { prev } : {}),
    });
    own.sort((a, b) => a.ts - b.ts);
  }

  /**
   * The own user's membership when an event was sent (at `ts`), from the
   * room's own state history: the last own membership event at or before
   * it; before the first one known, that event's previous membership
   * ("leave" for a join without one: nobody is a member before joining).
   * Undefined when nothing is known.
   */
  membershipAt(roomId: string, ts: number): string | undefined {
    const own = this.rooms.get(roomId)?.own;
    if (own === undefined || own.length === 0) return undefined;
    let at: string | undefined;
    for (const change of own) {
      if (change.ts > ts) break;
      at = change.membership;
    }
    if (at !== undefined) return at;
    const first = own[0] as OwnMembership;
    return first.prev ?? (first.membership === "join" ? "leave" : undefined);
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
