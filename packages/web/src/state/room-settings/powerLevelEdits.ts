/**
 * The power level editor's changes and their checks. A change is allowed
 * when the user may send m.room.power_levels and, as the auth rules
 * require, neither the old nor the new value of any changed level is above
 * the user's own; per-user changes go through the SDK's
 * PowerLevels.whyCannotSetUserLevel. The merge keeps every field it does
 * not touch, so unknown keys survive.
 */
import type { PowerLevels } from "../../sdk";
import { t } from "../../i18n/i18n";

/** The top-level numeric fields of a power levels content the editor changes. */
export const LEVEL_KEYS = [
  "users_default",
  "events_default",
  "state_default",
  "invite",
  "kick",
  "ban",
  "redact",
] as const;
export type LevelKey = (typeof LEVEL_KEYS)[number];

/** What the editor changes; anything left out stays as it is. */
export interface PowerLevelChanges {
  levels?: Partial<Record<LevelKey, number>>;
  /** Per event type; null removes the override. */
  events?: Record<string, number | null>;
  /** Per user; null removes the entry. */
  users?: Record<string, number | null>;
  /** The level to notify the whole room (@room). */
  notifyRoom?: number;
}

/** The current value of a level key. */
export function currentLevel(pl: PowerLevels, key: LevelKey): number {
  const l = pl.levels;
  const map: Record<LevelKey, number> = {
    users_default: l.usersDefault,
    events_default: l.eventsDefault,
    state_default: l.stateDefault,
    invite: l.invite,
    kick: l.kick,
    ban: l.ban,
    redact: l.redact,
  };
  return map[key];
}

/** Why `me` may not make `changes`, or null when they may. */
export function whyCannotEditPowerLevels(
  pl: PowerLevels,
  me: string,
  changes: PowerLevelChanges,
): string | null {
  if (!pl.canSendEvent(me, "m.room.power_levels", true)) return t("roomSettings", "roles_forbidden");
  const mine = pl.userLevel(me);
  const tooHigh = (before: number, after: number | null): boolean =>
    before !== after && (before > mine || (after !== null && after > mine));
  for (const [key, value] of Object.entries(changes.levels ?? {})) {
    if (!Number.isSafeInteger(value)) return "Power levels must be integers";
    if (tooHigh(currentLevel(pl, key as LevelKey), value)) return t("roomSettings", "forbidden");
  }
  for (const [type, value] of Object.entries(changes.events ?? {})) {
    if (value !== null && !Number.isSafeInteger(value)) return "Power levels must be integers";
    if (tooHigh(pl.requiredForEvent(type, true), value)) return t("roomSettings", "forbidden");
  }
  if (changes.notifyRoom !== undefined && tooHigh(pl.notificationLevel("room"), changes.notifyRoom))
    return t("roomSettings", "forbidden");
  for (const [userId, value] of Object.entries(changes.users ?? {})) {
    const why = pl.whyCannotSetUserLevel(me, userId, value);
    if (why !== null) return why;
  }
  return null;
}

/** A NEW power levels content: `raw` with `changes` applied. */
export function mergePowerLevels(
  raw: Record<string, unknown> | undefined,
  changes: PowerLevelChanges,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...(raw ?? {}) };
  for (const [key, value] of Object.entries(changes.levels ?? {})) out[key] = value;
  const patch = (field: string, edits: Record<string, number | null> | undefined): void => {
    if (edits === undefined) return;
    const base = out[field];
    const next: Record<string, unknown> =
      typeof base === "object" && base !== null && !Array.isArray(base)
        ? { ...(base as Record<string, unknown>) }
        : {};
    for (const [k, v] of Object.entries(edits)) {
      if (v === null) delete next[k];
      else next[k] = v;
    }
    out[field] = next;
  };
  patch("events", changes.events);
  patch("users", changes.users);
  if (changes.notifyRoom !== undefined) {
    const base = out["notifications"];
    out["notifications"] = {
      ...(typeof base === "object" && base !== null && !Array.isArray(base) ? base : {}),
      room: changes.notifyRoom,
    };
  }
  return out;
}
