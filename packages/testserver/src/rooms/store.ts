/**
 * Rooms, their events and state, the authorisation rules, membership,
 * aliases and the directory.
 *
 * The methods below the constructor are the cross-domain contract that the
 * userdata domain (push rules, notifications, search, delayed events) and
 * the demo seed call; their bodies are filled by the rooms domain.
 */
import type { ServerContext } from "../core/context";
import type { JsonObject, StoredEvent } from "../core/events";

export type Membership = "join" | "invite" | "leave" | "ban" | "knock";

export class RoomStore {
  constructor(protected readonly ctx: ServerContext) {}

  /** Whether the room exists. */
  has(_roomId: string): boolean {
    return false;
  }

  /** One event of a room. */
  getEvent(_roomId: string, _eventId: string): StoredEvent | undefined {
    return undefined;
  }

  /** Every event of a room in order (oldest first). */
  timeline(_roomId: string): readonly StoredEvent[] {
    return [];
  }

  /** The current state event for (type, stateKey). */
  currentState(_roomId: string, _type: string, _stateKey: string): StoredEvent | undefined {
    return undefined;
  }

  /** The user's current membership in the room. */
  membershipOf(_roomId: string, _userId: string): Membership | undefined {
    return undefined;
  }

  /** Users whose membership is join. */
  joinedMembers(_roomId: string): string[] {
    return [];
  }

  /** Rooms in which the user has any membership, with it. */
  roomsForUser(_userId: string): Array<{ roomId: string; membership: Membership }> {
    return [];
  }

  /** Whether history visibility lets the user see this event. */
  canSee(_userId: string, _event: StoredEvent): boolean {
    return false;
  }

  /**
   * Sends an event as a user, through the same authorisation rules as the
   * HTTP API (throws MatrixHttpError when refused). Used by delayed events
   * and the demo seed.
   */
  sendAsUser(
    _userId: string,
    _roomId: string,
    _type: string,
    _content: JsonObject,
    _stateKey?: string,
  ): StoredEvent {
    throw new Error("RoomStore.sendAsUser is not implemented yet");
  }
}
