/**
 * Room creation, membership and moderation: create, invite (a user or a 3pid), join (via servers,
 * third_party_signed), leave, knock, kick, ban, unban, forget, power level
 * changes, room upgrade, reports, aliases and directory visibility.
 *
 * Actions the room's power levels govern are checked first against the
 * room's current PowerLevels, so a refused action fails locally with a
 * ClientServiceError (FORBIDDEN_LOCALLY) before any request. What the local
 * state cannot know (a stale view, server policy) comes back from the server
 * as its MatrixError, M_FORBIDDEN included, unchanged.
 */
import { createAlias, deleteAlias, getRoomVisibility, setRoomVisibility } from "../../api/directory";
import {
  banUser,
  forgetRoom,
  inviteThirdParty,
  inviteUser,
  joinRoom,
  kickUser,
  knockRoom,
  leaveRoom,
  unbanUser,
} from "../../api/membership";
import { createRoom, reportEvent, reportRoom, roomAliases, upgradeRoom } from "../../api/rooms";
import { sendStateEvent } from "../../api/send";
import type { JoinOptions, ThirdPartyInvite } from "../../api/types/membership";
import type { CreateRoomRequest, DirectoryVisibility } from "../../api/types/rooms";
import type { HttpApi } from "../../http/types";
import type { PowerLevels } from "../../models/power-levels";
import { assertCanSendStateEvent } from "../../sync/guests";
import { forbiddenLocally } from "../errors";
import type { Actor, RoomLookup, RunningGuard } from "./types";
import { ALWAYS_RUNNING } from "./types";

/** What `create` watches to know a new room has reached this client (the Rooms model). */
export interface RoomArrivals {
  find(roomId: string): { getSnapshot(): { readonly isEncrypted: boolean } } | undefined;
  onChange(listener: (changed: ReadonlySet<string>) => void): () => void;
}

export interface ModerationServiceOptions {
  http: HttpApi;
  actor: Actor;
  rooms: RoomLookup & Partial<RoomArrivals>;
  running?: RunningGuard;
}

/** Whether a createRoom body turns encryption on (initial_state carries m.room.encryption). */
export function createsEncrypted(body: CreateRoomRequest): boolean {
  return (body.initial_state ?? []).some((e) => e.type === "m.room.encryption" && (e.state_key ?? "") === "");
}

function watchesArrivals(rooms: Partial<RoomArrivals>): rooms is RoomArrivals {
  return typeof rooms.find === "function" && typeof rooms.onChange === "function";
}

export class ModerationService {
  constructor(private readonly options: ModerationServiceOptions) {}

  private get http(): HttpApi {
    return this.options.http;
  }

  private get me(): string {
    return this.options.actor.userId;
  }

  /** The room's power levels ('Unknown room' for a room the client does not know). */
  powerLevels(roomId: string): PowerLevels {
    (this.options.running ?? ALWAYS_RUNNING).requireRunning();
    return this.options.rooms.get(roomId).getSnapshot().state.powerLevels;
  }

  /**
   * 'Unknown room' for a room the client does not know (join, knock, forget
   * and room reports may name rooms it does not hold, so they skip this).
   */
  private known(roomId: string): void {
    this.options.rooms.get(roomId);
  }

  /**
   * Creates a room; resolves with its id. A room created encrypted resolves
   * only once sync has shown it encrypted: until then the send queue would
   * not know to encrypt, and a message sent at once (sync can bring the room
   * mid-creation, before its m.room.encryption) would go out in the clear.
   */
  async create(body: CreateRoomRequest): Promise<string> {
    (this.options.running ?? ALWAYS_RUNNING).requireRunning();
    const roomId = (await createRoom(this.http, body)).room_id;
    const rooms = this.options.rooms;
    if (!createsEncrypted(body) || !watchesArrivals(rooms)) return roomId;
    const encrypted = (): boolean => rooms.find(roomId)?.getSnapshot().isEncrypted === true;
    if (encrypted()) return roomId;
    await new Promise<void>((resolve) => {
      const stop = rooms.onChange((changed) => {
        if (changed.has(roomId) && encrypted()) {
          stop();
          resolve();
        }
      });
    });
    return roomId;
  }

  /** Joins a room by id or alias; the room need not be known yet. */
  async join(roomIdOrAlias: string, options: JoinOptions = {}): Promise<string> {
    return (await joinRoom(this.http, roomIdOrAlias, options)).room_id;
  }

  /** Asks to join a room whose join rule is knock. */
  async knock(roomIdOrAlias: string, reason?: string, via?: readonly string[]): Promise<string> {
    const options = { ...(reason !== undefined ? { reason } : {}), ...(via ? { via } : {}) };
    return (await knockRoom(this.http, roomIdOrAlias, options)).room_id;
  }

  /** Leaves (or declines an invite to, or withdraws a knock on) a room. */
  async leave(roomId: string, reason?: string): Promise<void> {
    this.known(roomId);
    await leaveRoom(this.http, roomId, reason);
  }

  /** Forgets a room the user has left. */
  async forget(roomId: string): Promise<void> {
    await forgetRoom(this.http, roomId);
  }

  async invite(roomId: string, userId: string, reason?: string): Promise<void> {
    if (!this.powerLevels(roomId).canInvite(this.me)) throw forbiddenLocally("invite", roomId);
    await inviteUser(this.http, roomId, userId, reason);
  }

  /** Invites by email or phone through an identity server. */
  async inviteThirdParty(roomId: string, invite: ThirdPartyInvite): Promise<void> {
    if (!this.powerLevels(roomId).canInvite(this.me)) throw forbiddenLocally("invite", roomId);
    await inviteThirdParty(this.http, roomId, invite);
  }

  async kick(roomId: string, userId: string, reason?: string): Promise<void> {
    if (!this.powerLevels(roomId).canKick(this.me, userId)) throw forbiddenLocally(`kick ${userId}`, roomId);
    await kickUser(this.http, roomId, userId, reason);
  }

  async ban(roomId: string, userId: string, reason?: string): Promise<void> {
    if (!this.powerLevels(roomId).canBan(this.me, userId)) throw forbiddenLocally(`ban ${userId}`, roomId);
    await banUser(this.http, roomId, userId, reason);
  }

  /** Unbanning needs the ban level over a lower-level target, as banning does. */
  async unban(roomId: string, userId: string, reason?: string): Promise<void> {
    if (!this.powerLevels(roomId).canBan(this.me, userId)) throw forbiddenLocally(`unban ${userId}`, roomId);
    await unbanUser(this.http, roomId, userId, reason);
  }

  /**
   * Sets a user's power level (null removes the entry). The model refuses a
   * change the auth rules would reject (ModelError POWER_LEVEL_FORBIDDEN).
   */
  async setPowerLevel(roomId: string, userId: string, level: number | null): Promise<string> {
    assertCanSendStateEvent(this.options.actor);
    const content = this.powerLevels(roomId).setUserLevel(this.me, userId, level);
    return (await sendStateEvent(this.http, roomId, "m.room.power_levels", content)).event_id;
  }

  /** Upgrades the room ('A room upgrade needs a version'); resolves with the new room's id. */
  async upgrade(roomId: string, newVersion: string): Promise<string> {
    if (!this.powerLevels(roomId).canSendEvent(this.me, "m.room.tombstone", true)) {
      throw forbiddenLocally("upgrade the room", roomId);
    }
    return (await upgradeRoom(this.http, roomId, { new_version: newVersion })).replacement_room;
  }

  /** Reports an event to the server's admins. */
  async reportEvent(roomId: string, eventId: string, reason?: string, score?: number): Promise<void> {
    this.known(roomId);
    await reportEvent(this.http, roomId, eventId, {
      ...(reason !== undefined ? { reason } : {}),
      ...(score !== undefined ? { score } : {}),
    });
  }

  /** Reports a whole room to the server's admins. */
  async reportRoom(roomId: string, reason = ""): Promise<void> {
    await reportRoom(this.http, roomId, reason);
  }

  /** The room's local aliases. */
  async aliases(roomId: string): Promise<string[]> {
    this.known(roomId);
    const res = await roomAliases(this.http, roomId);
    return Array.isArray(res.aliases) ? res.aliases.filter((a): a is string => typeof a === "string") : [];
  }

  /** Points a new alias at the room. */
  async addAlias(roomId: string, alias: string): Promise<void> {
    this.known(roomId);
    await createAlias(this.http, alias, roomId);
  }

  async removeAlias(alias: string): Promise<void> {
    await deleteAlias(this.http, alias);
  }

  /** Whether the room is listed in the server's public room directory. */
  async visibility(roomId: string): Promise<DirectoryVisibility> {
    this.known(roomId);
    return (await getRoomVisibility(this.http, roomId)).visibility;
  }

  /** Lists or unlists the room; the server decides who may (usually its moderators). */
  async setVisibility(roomId: string, visibility: DirectoryVisibility): Promise<void> {
    this.known(roomId);
    await setRoomVisibility(this.http, roomId, visibility);
  }
}
