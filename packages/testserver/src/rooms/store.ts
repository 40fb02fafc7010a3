/**
 * Rooms, their events and state, the authorisation rules, membership,
 * aliases and the directory.
 *
 * The methods below the constructor are the cross-domain contract that the
 * userdata domain (push rules, notifications, search, delayed events) and
 * the demo seed call. The logic lives in the sibling modules; this class
 * holds the records and delegates.
 */
import type { ServerContext } from "../core/context";
import type { JsonObject, StoredEvent } from "../core/events";
import { errors } from "../http/errors";
import type { AppendOptions } from "./append";
import { appendEvent } from "./append";
import type { Candidate } from "./auth";
import { membershipIn } from "./auth";
import { createRoom } from "./create";
import { invite, join } from "./membership";
import type { Room } from "./room";
import { stateKey } from "./room";
import { canSee } from "./visibility";

export type Membership = "join" | "invite" | "leave" | "ban" | "knock";

const MEMBERSHIPS = new Set<string>(["join", "invite", "leave", "ban", "knock"]);

/** A content report (POST /report). */
export interface Report {
  roomId: string;
  eventId?: string;
  reporter: string;
  reason?: string;
  score?: number;
  ts: number;
}

export class RoomStore {
  /** Rooms by id. */
  readonly rooms = new Map<string, Room>();
  /** Room aliases: alias -> {roomId, creator}. */
  readonly aliases = new Map<string, { roomId: string; creator: string }>();
  /** Content reports, for inspection by tests. */
  readonly reports: Report[] = [];

  constructor(protected readonly ctx: ServerContext) {}

  /** Whether the room exists. */
  has(roomId: string): boolean {
    return this.rooms.has(roomId);
  }

  /** One event of a room. */
  getEvent(roomId: string, eventId: string): StoredEvent | undefined {
    return this.rooms.get(roomId)?.byId.get(eventId);
  }

  /** Every event of a room in order (oldest first). */
  timeline(roomId: string): readonly StoredEvent[] {
    return this.rooms.get(roomId)?.events ?? [];
  }

  /** The current state event for (type, stateKey). */
  currentState(roomId: string, type: string, key: string): StoredEvent | undefined {
    return this.rooms.get(roomId)?.state.get(stateKey(type, key));
  }

  /** The user's current membership in the room. */
  membershipOf(roomId: string, userId: string): Membership | undefined {
    const room = this.rooms.get(roomId);
    if (!room) return undefined;
    const m = membershipIn(room, userId);
    return m !== undefined && MEMBERSHIPS.has(m) ? (m as Membership) : undefined;
  }

  /** Users whose membership is join. */
  joinedMembers(roomId: string): string[] {
    const room = this.rooms.get(roomId);
    if (!room) return [];
    const out: string[] = [];
    for (const ev of room.state.values()) {
      if (ev.type === "m.room.member" && ev.content["membership"] === "join" && ev.state_key !== undefined)
        out.push(ev.state_key);
    }
    return out;
  }

  /** Rooms in which the user has any membership, with it. */
  roomsForUser(userId: string): Array<{ roomId: string; membership: Membership }> {
    const out: Array<{ roomId: string; membership: Membership }> = [];
    for (const room of this.rooms.values()) {
      const m = membershipIn(room, userId);
      if (m !== undefined && MEMBERSHIPS.has(m))
        out.push({ roomId: room.roomId, membership: m as Membership });
    }
    return out;
  }

  /** Whether history visibility lets the user see this event. */
  canSee(userId: string, event: StoredEvent): boolean {
    const room = this.rooms.get(event.room_id);
    return room ? canSee(room, userId, event) : false;
  }

  /**
   * Sends an event as a user, through the same authorisation rules as the
   * HTTP API (throws MatrixHttpError when refused). Used by delayed events
   * and the demo seed.
   */
  sendAsUser(userId: string, roomId: string, type: string, content: JsonObject, key?: string): StoredEvent {
    const room = this.require(roomId);
    const candidate: Candidate = { type, sender: userId, content };
    if (key !== undefined) candidate.state_key = key;
    return this.append(room, candidate);
  }

  // ---- Beyond the contract: used by the rooms routes and sync. ----

  /** The room, or 404 M_NOT_FOUND. */
  require(roomId: string): Room {
    const room = this.rooms.get(roomId);
    if (!room) throw errors.notFound("Unknown room");
    return room;
  }

  /** Authorises and appends an event to a room. */
  append(room: Room, candidate: Candidate, options: AppendOptions = {}): StoredEvent {
    return appendEvent(this.ctx, room, candidate, (r, u) => this.membershipOf(r, u), options);
  }

  /** Creates a room from a createRoom body as the user (the demo seed's entry point); returns its id. */
  createRoomAs(userId: string, body: JsonObject): string {
    return createRoom(this.ctx, this, userId, body).roomId;
  }

  /** Joins a room by id or alias as the user; returns the room id. */
  joinAs(userId: string, roomIdOrAlias: string): string {
    const roomId = this.resolve(roomIdOrAlias);
    join(this.ctx, this, userId, roomId);
    return roomId;
  }

  /** Invites `target` as `sender`. */
  inviteAs(sender: string, roomId: string, target: string): void {
    invite(this.ctx, this, sender, roomId, target);
  }

  /** Resolves a room id or alias to a room id (404 when unknown). */
  resolve(roomIdOrAlias: string): string {
    if (roomIdOrAlias.startsWith("#")) {
      const entry = this.aliases.get(roomIdOrAlias);
      if (!entry) throw errors.notFound(`Room alias ${roomIdOrAlias} not found`);
      return entry.roomId;
    }
    if (!roomIdOrAlias.startsWith("!"))
      throw errors.invalidParam(`${roomIdOrAlias} was not legal room ID or room alias`);
    return roomIdOrAlias;
  }
}
