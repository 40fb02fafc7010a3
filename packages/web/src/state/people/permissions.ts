/**
 * What the user may do to a member, and why not: the SDK's power-level
 * rules (PowerLevels.canKick/canBan/canInvite/whyCannotSetUserLevel) turned
 * into a reason the UI shows beside a disabled action. A null reason means
 * the action is allowed.
 */
import type { Membership, PowerLevels } from "../../sdk";
import { t } from "../../i18n/i18n";

/** The role label of a power level. */
export type RoleKind = "creator" | "admin" | "moderator" | "custom" | "user";

/** The role of a level: 100+ admin, 50+ moderator, the default level plain, else custom. */
export function roleOf(level: number, usersDefault: number): RoleKind {
  if (level === Infinity) return "creator";
  if (level >= 100) return "admin";
  if (level >= 50) return "moderator";
  if (level === usersDefault) return "user";
  return "custom";
}

/** The label of a role (with the level for custom ones). */
export function roleLabel(role: RoleKind, level: number): string {
  if (role === "custom") return t("people", "role_custom", { level });
  return t("people", `role_${role}`);
}

/** Each moderation action with null when allowed, or the reason it is not. */
export interface MemberRights {
  kick: string | null;
  ban: string | null;
  unban: string | null;
  /** Letting a knocking user in (an invite). */
  acceptKnock: string | null;
  /** Changing their power level (any level up to the user's own). */
  power: string | null;
  /** The highest level the user may grant. */
  maxLevel: number;
}

/** The user's rights over `target` (membership `membership`) under `pl`. */
export function rightsOver(
  pl: PowerLevels,
  me: string,
  target: string,
  membership: Membership | undefined,
): MemberRights {
  const self = me === target ? t("people", "why_self") : null;
  const modReason = (required: number, can: boolean): string | null => {
    if (can) return null;
    return pl.userLevel(me) < required ? t("people", "why_level") : t("people", "why_higher");
  };
  const present = membership === "join" || membership === "invite" || membership === "knock";
  const kick =
    self ??
    (present ? null : t("people", "why_not_member")) ??
    modReason(pl.levels.kick, pl.canKick(me, target));
  const ban = self ?? modReason(pl.levels.ban, pl.canBan(me, target));
  const unban =
    membership !== "ban" ? t("people", "why_not_banned") : modReason(pl.levels.ban, pl.canBan(me, target));
  const acceptKnock =
    membership !== "knock"
      ? t("people", "why_not_member")
      : pl.canInvite(me)
        ? null
        : t("people", "why_level");
  const myLevel = pl.userLevel(me);
  const powerWhy = pl.whyCannotSetUserLevel(me, target, Math.min(myLevel, 100));
  return {
    kick,
    ban,
    unban,
    acceptKnock,
    power: powerWhy,
    maxLevel: myLevel === Infinity ? 100 : myLevel,
  };
}

/** Why the user may not invite, or null. */
export function whyCannotInvite(pl: PowerLevels, me: string): string | null {
  return pl.canInvite(me) ? null : t("people", "why_level");
}
