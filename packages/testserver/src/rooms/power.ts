/**
 * Power levels: reading a room's m.room.power_levels with the spec's
 * defaults, the v12 creators' infinite power, and the check that a change
 * of power levels stays within the sender's own level.
 */
import type { JsonObject } from "../core/events";
import { errors } from "../http/errors";
import type { Room } from "./room";
import { hasCreatorPower } from "./versions";

/** Infinite power of v12 creators. */
export const CREATOR_POWER = Number.POSITIVE_INFINITY;

/** Power level content createRoom writes before presets and overrides. */
export function defaultPowerLevels(creator: string, v12: boolean): JsonObject {
  return {
    users: v12 ? {} : { [creator]: 100 },
    users_default: 0,
    events: {
      "m.room.name": 50,
      "m.room.power_levels": 100,
      "m.room.history_visibility": 100,
      "m.room.canonical_alias": 50,
      "m.room.avatar": 50,
      "m.room.tombstone": 100,
      "m.room.server_acl": 100,
      "m.room.encryption": 100,
    },
    events_default: 0,
    state_default: 50,
    ban: 50,
    kick: 50,
    redact: 50,
    invite: 0,
    historical: 100,
    notifications: { room: 50 },
  };
}

function int(value: unknown, fallback: number): number {
  if (typeof value === "number" && Number.isFinite(value)) return Math.trunc(value);
  if (typeof value === "string" && /^-?\d+$/.test(value.trim())) return Number.parseInt(value, 10);
  return fallback;
}

function record(value: unknown): JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as JsonObject) : {};
}

/** The creators of a room: the create event's sender and, from v12, additional_creators. */
export function creatorsOf(room: Room): Set<string> {
  const out = new Set<string>();
  const create = room.state.get("m.room.create\u0000");
  if (!create) return out;
  out.add(create.sender);
  const extra = create.content["additional_creators"];
  if (hasCreatorPower(room.version) && Array.isArray(extra)) {
    for (const u of extra) if (typeof u === "string") out.add(u);
  }
  return out;
}

/** A resolved view over the room's power levels. */
export class PowerLevels {
  constructor(
    private readonly content: JsonObject | undefined,
    private readonly creators: Set<string>,
    private readonly v12: boolean,
  ) {}

  static of(room: Room): PowerLevels {
    return new PowerLevels(
      room.stateContent("m.room.power_levels"),
      creatorsOf(room),
      hasCreatorPower(room.version),
    );
  }

  userLevel(userId: string): number {
    if (this.v12 && this.creators.has(userId)) return CREATOR_POWER;
    if (!this.content) return this.creators.has(userId) ? 100 : 0;
    const users = record(this.content["users"]);
    if (Object.prototype.hasOwnProperty.call(users, userId)) return int(users[userId], 0);
    return int(this.content["users_default"], 0);
  }

  /** The level needed to send an event of this type (state or not). */
  eventLevel(type: string, isState: boolean): number {
    if (!this.content) return 0;
    const events = record(this.content["events"]);
    if (Object.prototype.hasOwnProperty.call(events, type)) return int(events[type], 0);
    return isState ? int(this.content["state_default"], 50) : int(this.content["events_default"], 0);
  }

  /** ban, kick, redact, invite with the spec's defaults. */
  action(name: "ban" | "kick" | "redact" | "invite"): number {
    const fallback = name === "invite" ? 0 : 50;
    if (!this.content) return name === "invite" ? 0 : 50;
    return int(this.content[name], fallback);
  }

  /** notifications.room (default 50). */
  notificationLevel(key: string): number {
    const n = record(this.content?.["notifications"]);
    return int(n[key], 50);
  }
}

/**
 * Checks a new m.room.power_levels content against the old one: every
 * changed level must be at most the sender's, and other users at or above
 * the sender's level cannot be changed. In v12 creators may not be listed.
 */
export function checkPowerLevelsChange(room: Room, sender: string, next: JsonObject): void {
  const pl = PowerLevels.of(room);
  const own = pl.userLevel(sender);
  const old = room.stateContent("m.room.power_levels");
  for (const key of ["users_default", "events_default", "state_default", "ban", "kick", "redact", "invite"]) {
    const v = next[key];
    if (v !== undefined && !isLevel(v)) throw errors.badJson(`Invalid value for ${key}`);
  }
  for (const key of ["users", "events", "notifications"]) {
    const v = next[key];
    if (v === undefined) continue;
    if (typeof v !== "object" || v === null || Array.isArray(v))
      throw errors.badJson(`${key} must be an object`);
    for (const level of Object.values(v as JsonObject)) {
      if (!isLevel(level)) throw errors.badJson(`Invalid level in ${key}`);
    }
  }
  const nextUsers = record(next["users"]);
  if (hasCreatorPower(room.version)) {
    for (const c of creatorsOf(room)) {
      if (Object.prototype.hasOwnProperty.call(nextUsers, c))
        throw errors.badJson("Creator user IDs cannot be in the users map");
    }
  }
  if (!old) return;
  const tooHigh = (a: unknown, b: unknown, fallback: number): boolean => {
    const x = a === undefined ? undefined : int(a, fallback);
    const y = b === undefined ? undefined : int(b, fallback);
    if (x === y) return false;
    return (x !== undefined && x > own) || (y !== undefined && y > own);
  };
  const simple: Array<[string, number]> = [
    ["users_default", 0],
    ["events_default", 0],
    ["state_default", 50],
    ["ban", 50],
    ["kick", 50],
    ["redact", 50],
    ["invite", 0],
  ];
  for (const [key, fallback] of simple) {
    if (tooHigh(old[key], next[key], fallback))
      throw errors.forbidden(`You don't have permission to change ${key}`);
  }
  for (const key of ["events", "notifications"]) {
    const a = record(old[key]);
    const b = record(next[key]);
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (tooHigh(a[k], b[k], 0)) throw errors.forbidden(`You don't have permission to change ${key}.${k}`);
    }
  }
  const oldUsers = record(old["users"]);
  for (const u of new Set([...Object.keys(oldUsers), ...Object.keys(nextUsers)])) {
    const a = oldUsers[u] === undefined ? undefined : int(oldUsers[u], 0);
    const b = nextUsers[u] === undefined ? undefined : int(nextUsers[u], 0);
    if (a === b) continue;
    if (u !== sender && a !== undefined && a >= own)
      throw errors.forbidden("You don't have permission to change the level of that user");
    if ((a !== undefined && a > own) || (b !== undefined && b > own))
      throw errors.forbidden("You don't have permission to raise a user above your own level");
  }
}

/** A power level value: an integer (or, in old rooms, an integer string). */
function isLevel(v: unknown): boolean {
  return (typeof v === "number" && Number.isInteger(v)) || (typeof v === "string" && /^-?\d+$/.test(v));
}
