/**
 * Reading an m.room.power_levels content (untrusted JSON) into numbers. Levels
 * are integers; room versions before 10 also accept integers written as
 * strings ("50"), as servers of the time did. Anything else is garbage and the
 * field falls back to its default, so a hostile event can never throw here.
 */
import { isJsonObject, own } from "./json";
import type { RoomVersionRules } from "./room-versions";

/** The spec's default thresholds when a power levels event exists but omits a field. */
export const POWER_LEVEL_DEFAULTS = {
  usersDefault: 0,
  eventsDefault: 0,
  stateDefault: 50,
  ban: 50,
  kick: 50,
  redact: 50,
  invite: 0,
  notificationsRoom: 50,
} as const;

/** The level the creator has in versions 1 to 11 while no power levels event exists. */
export const CREATOR_LEVEL_WITHOUT_EVENT = 100;

const MAX_LEVEL = Number.MAX_SAFE_INTEGER;
const NUMERIC_STRING = /^\s*[+-]?[0-9]{1,16}\s*$/;

/** A power level value, or undefined when it is not one this room version accepts. */
export function parseLevel(value: unknown, rules: RoomVersionRules): number | undefined {
  if (typeof value === "number") {
    return Number.isInteger(value) && Math.abs(value) <= MAX_LEVEL ? value : undefined;
  }
  if (typeof value === "string" && !rules.integerPowerLevels && NUMERIC_STRING.test(value)) {
    const n = Number.parseInt(value.trim(), 10);
    return Math.abs(n) <= MAX_LEVEL ? n : undefined;
  }
  return undefined;
}

/** A map of levels keyed by id (user id, event type, notification key); garbage entries dropped. */
export function parseLevelMap(value: unknown, rules: RoomVersionRules): Map<string, number> {
  const map = new Map<string, number>();
  if (!isJsonObject(value)) return map;
  for (const [key, raw] of Object.entries(value)) {
    const level = parseLevel(raw, rules);
    if (level !== undefined) map.set(key, level);
  }
  return map;
}

/** The parsed numbers of a power levels content. */
export interface ParsedPowerLevels {
  readonly hasEvent: boolean;
  readonly usersDefault: number;
  readonly eventsDefault: number;
  readonly stateDefault: number;
  readonly ban: number;
  readonly kick: number;
  readonly redact: number;
  readonly invite: number;
  readonly users: ReadonlyMap<string, number>;
  readonly events: ReadonlyMap<string, number>;
  readonly notifications: ReadonlyMap<string, number>;
}

/**
 * Parses a power levels content. `content` undefined or null means the room
 * has no power levels event, where the spec makes state_default 0 instead of
 * 50; any other non-object is treated as an event with every field missing.
 */
export function parsePowerLevels(content: unknown, rules: RoomVersionRules): ParsedPowerLevels {
  const hasEvent = content !== undefined && content !== null;
  const field = (key: string, fallback: number): number => parseLevel(own(content, key), rules) ?? fallback;
  const d = POWER_LEVEL_DEFAULTS;
  const notifications = parseLevelMap(own(content, "notifications"), rules);
  if (!notifications.has("room")) notifications.set("room", d.notificationsRoom);
  return {
    hasEvent,
    usersDefault: field("users_default", d.usersDefault),
    eventsDefault: field("events_default", d.eventsDefault),
    stateDefault: hasEvent ? field("state_default", d.stateDefault) : 0,
    ban: field("ban", d.ban),
    kick: field("kick", d.kick),
    redact: field("redact", d.redact),
    invite: field("invite", d.invite),
    users: parseLevelMap(own(content, "users"), rules),
    events: parseLevelMap(own(content, "events"), rules),
    notifications,
  };
}
