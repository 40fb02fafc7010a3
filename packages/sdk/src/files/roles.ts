/**
 * Roles of a file tree over room power levels, as MSC3089 maps them:
 * viewer = users_default, editor = events_default, owner = the level needed
 * to send m.room.power_levels. A role change is checked here before any
 * request: only an owner changes roles, owners cannot be demoted, and the
 * room's own power rules (PowerLevels.whyCannotSetUserLevel) still apply.
 */
import type { PowerLevels } from "../models/power-levels";
import { FILE_TREE_MESSAGES, FileTreeError } from "./errors";

/** A member's role in a folder. */
export type TreeRole = "viewer" | "editor" | "owner";

/** Every role, lowest first. */
export const TREE_ROLES: readonly TreeRole[] = ["viewer", "editor", "owner"];

/** The level each role stands for in these power levels. */
export function levelOfRole(levels: PowerLevels, role: TreeRole): number {
  switch (role) {
    case "viewer":
      return levels.levels.usersDefault;
    case "editor":
      return levels.levels.eventsDefault;
    case "owner":
      return levels.requiredForEvent("m.room.power_levels", true);
  }
}

/** The role a user holds: the highest whose level they reach. */
export function roleOf(levels: PowerLevels, userId: string): TreeRole {
  const level = levels.userLevel(userId);
  if (level >= levelOfRole(levels, "owner")) return "owner";
  if (level >= levelOfRole(levels, "editor")) return "editor";
  return "viewer";
}

/** Whether a user may add files, new versions, renames, moves and deletions. */
export function canEdit(levels: PowerLevels, userId: string): boolean {
  return roleOf(levels, userId) !== "viewer";
}

/** Whether a value names a role. */
export function isTreeRole(value: unknown): value is TreeRole {
  return value === "viewer" || value === "editor" || value === "owner";
}

/**
 * Why `actorId` may not give `targetId` the role, or null when allowed.
 * Only owners change roles; an owner is never lowered (MSC3089: owners
 * cannot be demoted), not even by themselves.
 */
export function whyCannotSetRole(
  levels: PowerLevels,
  actorId: string,
  targetId: string,
  role: unknown,
): string | null {
  if (!isTreeRole(role)) return FILE_TREE_MESSAGES.unknownRole;
  if (roleOf(levels, actorId) !== "owner") return FILE_TREE_MESSAGES.notOwner;
  if (roleOf(levels, targetId) === "owner" && role !== "owner")
    return FILE_TREE_MESSAGES.ownerCannotBeDemoted;
  return levels.whyCannotSetUserLevel(actorId, targetId, levelOfRole(levels, role));
}

/**
 * The new m.room.power_levels content giving `targetId` the role; throws a
 * FileTreeError with the reason when the change is refused.
 */
export function powerLevelsWithRole(
  levels: PowerLevels,
  actorId: string,
  targetId: string,
  role: TreeRole,
): Record<string, unknown> {
  const why = whyCannotSetRole(levels, actorId, targetId, role);
  if (why !== null) {
    const code =
      why === FILE_TREE_MESSAGES.ownerCannotBeDemoted
        ? "owner_cannot_be_demoted"
        : why === FILE_TREE_MESSAGES.unknownRole
          ? "unknown_role"
          : "forbidden";
    throw new FileTreeError(code, why);
  }
  return levels.setUserLevel(actorId, targetId, levelOfRole(levels, role));
}
