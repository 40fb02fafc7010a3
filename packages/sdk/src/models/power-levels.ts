/**
 * PowerLevels: who may do what in a room, from its m.room.power_levels
 * content, its m.room.create event and the room version. Versions 1 to 11
 * give the creator 100 only while no power levels event exists; from 12
 * (MSC4289) creators have infinite power and cannot be demoted. Immutable:
 * setUserLevel returns a new content to send, never mutates.
 */
import { roomCreators, rulesOfCreateEvent } from "./creators";
import { ModelError } from "./errors";
import { copyObject, isJsonObject, own } from "./json";
import type { ParsedPowerLevels } from "./power-levels-content";
import { CREATOR_LEVEL_WITHOUT_EVENT, POWER_LEVEL_DEFAULTS, parsePowerLevels } from "./power-levels-content";
import type { RoomVersionRules } from "./room-versions";
import { roomVersionRules } from "./room-versions";

/** What PowerLevels is built from: all untrusted JSON. */
export interface PowerLevelsSource {
  /** The m.room.power_levels content; undefined or null when the room has none. */
  readonly content?: unknown;
  /** The m.room.create event (sender and content are read). */
  readonly createEvent?: unknown;
  /** The room version, when known apart from the create event. */
  readonly roomVersion?: string;
}

/** The power levels of one room at one point in its state. */
export class PowerLevels {
  readonly rules: RoomVersionRules;
  readonly creators: ReadonlySet<string>;
  readonly levels: ParsedPowerLevels;
  private readonly rawContent: unknown;

  private constructor(rules: RoomVersionRules, creators: ReadonlySet<string>, content: unknown) {
    this.rules = rules;
    this.creators = creators;
    this.rawContent = content;
    this.levels = parsePowerLevels(content, rules);
  }

  /** Builds the power levels of a room from its state. Never throws on bad JSON. */
  static from(source: PowerLevelsSource): PowerLevels {
    const rules =
      source.roomVersion !== undefined
        ? roomVersionRules(source.roomVersion)
        : rulesOfCreateEvent(source.createEvent);
    return new PowerLevels(rules, roomCreators(source.createEvent, rules), source.content);
  }

  /** Whether the room has a power levels event at all. */
  get hasEvent(): boolean {
    return this.levels.hasEvent;
  }

  /** Whether a user is a creator with infinite power (room versions with MSC4289). */
  isPrivilegedCreator(userId: string): boolean {
    return this.rules.creatorsHaveInfinitePower && this.creators.has(userId);
  }

  /** A user's power level: Infinity for v12 creators, else users[id], else the defaults. */
  userLevel(userId: string): number {
    if (this.isPrivilegedCreator(userId)) return Infinity;
    const explicit = this.levels.users.get(userId);
    if (explicit !== undefined) return explicit;
    if (!this.levels.hasEvent && this.creators.has(userId)) return CREATOR_LEVEL_WITHOUT_EVENT;
    return this.levels.usersDefault;
  }

  /** The level needed to send an event of this type: its override, else state_default or events_default. */
  requiredForEvent(type: string, isState: boolean): number {
    return this.levels.events.get(type) ?? (isState ? this.levels.stateDefault : this.levels.eventsDefault);
  }

  /** Whether a user may send an event (state or not) of this type. */
  canSendEvent(userId: string, type: string, isState: boolean): boolean {
    return this.userLevel(userId) >= this.requiredForEvent(type, isState);
  }

  /**
   * Whether a user may redact an event sent by `eventSender`: their own with
   * the level for sending m.room.redaction, anyone else's also needs redact.
   */
  canRedact(userId: string, eventSender: string): boolean {
    if (!this.canSendEvent(userId, "m.room.redaction", false)) return false;
    return userId === eventSender || this.userLevel(userId) >= this.levels.redact;
  }

  /** Whether a user may invite others. */
  canInvite(userId: string): boolean {
    return this.userLevel(userId) >= this.levels.invite;
  }

  /** Whether a user may kick; with a target, only one of lower level. */
  canKick(userId: string, targetId?: string): boolean {
    return this.canModerate(userId, this.levels.kick, targetId);
  }

  /** Whether a user may ban (or unban); with a target, only one of lower level. */
  canBan(userId: string, targetId?: string): boolean {
    return this.canModerate(userId, this.levels.ban, targetId);
  }

  /** The level needed to trigger a notification of this key (e.g. "room"); 50 when unspecified. */
  notificationLevel(key: string): number {
    return this.levels.notifications.get(key) ?? POWER_LEVEL_DEFAULTS.notificationsRoom;
  }

  /** Whether a user may notify the whole room (@room). */
  canNotifyRoom(userId: string): boolean {
    return this.userLevel(userId) >= this.notificationLevel("room");
  }

  /**
   * Why `actorId` may not set `targetId` to `level` (null removes the entry),
   * or null when the change is allowed. Mirrors the auth rules: the actor
   * must be able to send m.room.power_levels; may not change another user
   * whose level is not below their own; may not grant more than they have;
   * and v12 creators are not in `users` at all.
   */
  whyCannotSetUserLevel(actorId: string, targetId: string, level: number | null): string | null {
    if (level !== null && !Number.isSafeInteger(level)) return "Power levels must be integers";
    if (this.isPrivilegedCreator(targetId)) return "Room creators have infinite power and cannot be demoted";
    if (!this.canSendEvent(actorId, "m.room.power_levels", true)) return "Not allowed to change power levels";
    const actorLevel = this.userLevel(actorId);
    const current = this.levels.users.get(targetId);
    if (targetId !== actorId && current !== undefined && current >= actorLevel) {
      return "Cannot change the power level of a user with the same or a higher level";
    }
    if (level !== null && level > actorLevel) return "Cannot grant a power level above your own";
    return null;
  }

  /**
   * A NEW power levels content with `targetId` set to `level` (null removes
   * the entry). Refused with ModelError('POWER_LEVEL_FORBIDDEN') when the
   * actor may not make the change. Without a power levels event, versions 1
   * to 11 keep the creator at 100 in the new content, as the server had it.
   */
  setUserLevel(actorId: string, targetId: string, level: number | null): Record<string, unknown> {
    const why = this.whyCannotSetUserLevel(actorId, targetId, level);
    if (why !== null) {
      const code =
        level !== null && !Number.isSafeInteger(level) ? "INVALID_ARGUMENT" : "POWER_LEVEL_FORBIDDEN";
      throw new ModelError(code, why);
    }
    const base = isJsonObject(this.rawContent) ? copyObject(this.rawContent) : {};
    const users = isJsonObject(own(base, "users"))
      ? copyObject(own(base, "users") as Record<string, unknown>)
      : {};
    if (!this.levels.hasEvent && !this.rules.creatorsHaveInfinitePower) {
      for (const creator of this.creators) users[creator] ??= CREATOR_LEVEL_WITHOUT_EVENT;
    }
    const entries = Object.entries(users).filter(([id]) => id !== targetId);
    if (level !== null) entries.push([targetId, level]);
    return { ...base, users: Object.fromEntries(entries) };
  }

  private canModerate(userId: string, required: number, targetId: string | undefined): boolean {
    const level = this.userLevel(userId);
    if (level < required) return false;
    return targetId === undefined || level > this.userLevel(targetId);
  }
}
