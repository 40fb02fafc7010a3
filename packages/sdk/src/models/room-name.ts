/**
 * The spec's "Calculating the display name for a room" and "for a user":
 * m.room.name, else the canonical alias, else the heroes of the sync summary
 * ("Alice", "Alice and Bob", "Alice, Bob and Carol", "… and N others"), else
 * "Empty room" or "Empty room (was Alice and Bob)". Member names are
 * disambiguated when two members share one ("Alice (@alice:hs)"). Also the
 * room avatar: the room's own, or the other member's in a DM.
 */
import { isUserId, own, ownString } from "./json";

/** How many heroes are named before "and N others". */
export const MAX_HEROES_SHOWN = 5;

/** A room name and which rule produced it. */
export interface RoomName {
  readonly kind: "named" | "alias" | "heroes" | "empty" | "empty_was";
  readonly name: string;
}

/** What the room name is computed from; the contents and summary are untrusted JSON. */
export interface RoomNameInput {
  /** The current user, never named among the heroes. */
  readonly userId: string;
  /** The m.room.name content. */
  readonly nameContent?: unknown;
  /** The m.room.canonical_alias content. */
  readonly canonicalAliasContent?: unknown;
  /** The sync summary (m.heroes, m.joined_member_count, m.invited_member_count). */
  readonly summary?: unknown;
  /** Counts from the member list, used where the summary has none. */
  readonly joinedMemberCount?: number;
  readonly invitedMemberCount?: number;
  /** The display name of a hero (e.g. from disambiguatedNames); the user id when unknown. */
  readonly memberName?: (userId: string) => string | undefined;
}

function count(summaryValue: unknown, fallback: number | undefined): number {
  if (typeof summaryValue === "number" && Number.isInteger(summaryValue) && summaryValue >= 0)
    return summaryValue;
  return fallback ?? 0;
}

/** Joins names as the spec's examples do: "A", "A and B", "A, B and C". */
export function joinNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? "";
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1] ?? ""}`;
}

/** The heroes of a summary, valid user ids other than the user, de-duplicated. */
export function heroesOf(summary: unknown, userId: string): string[] {
  const raw = own(summary, "m.heroes");
  if (!Array.isArray(raw)) return [];
  const heroes: string[] = [];
  for (const h of raw) if (isUserId(h) && h !== userId && !heroes.includes(h)) heroes.push(h);
  return heroes;
}

/**
 * Heroes computed from a member list, for rooms whose summary has none: the
 * first five joined or invited members other than the user (in the order
 * given, which should be the order they joined), else the first five who
 * left or were banned. Shaped like a summary, to pass as `summary`.
 */
export function summaryFromMembers(members: Iterable<NamedMember>, userId: string): Record<string, unknown> {
  const current: string[] = [];
  const former: string[] = [];
  let joined = 0;
  let invited = 0;
  for (const m of members) {
    if (m.membership === "join") joined++;
    if (m.membership === "invite") invited++;
    if (m.userId === userId) continue;
    if (COUNTED_MEMBERSHIPS.has(m.membership)) current.push(m.userId);
    else if (m.membership === "leave" || m.membership === "ban") former.push(m.userId);
  }
  return {
    "m.heroes": (current.length > 0 ? current : former).slice(0, MAX_HEROES_SHOWN),
    "m.joined_member_count": joined,
    "m.invited_member_count": invited,
  };
}

/** The display name of a room. */
export function roomName(input: RoomNameInput): RoomName {
  const name = ownString(input.nameContent, "name")?.trim();
  if (name) return { kind: "named", name };
  const alias = ownString(input.canonicalAliasContent, "alias")?.trim();
  if (alias) return { kind: "alias", name: alias };

  const heroes = heroesOf(input.summary, input.userId);
  const shown = heroes.slice(0, MAX_HEROES_SHOWN).map((id) => input.memberName?.(id) ?? id);
  const joined = count(own(input.summary, "m.joined_member_count"), input.joinedMemberCount);
  const invited = count(own(input.summary, "m.invited_member_count"), input.invitedMemberCount);
  const total = joined + invited;

  if (total <= 1) {
    // Only the user is left: name the room after who used to be in it.
    return shown.length > 0
      ? { kind: "empty_was", name: `Empty room (was ${joinNames(shown)})` }
      : { kind: "empty", name: "Empty room" };
  }
  if (shown.length === 0) return { kind: "empty", name: "Empty room" };
  const others = total - 1 - shown.length;
  if (others > 0) {
    return { kind: "heroes", name: `${shown.join(", ")} and ${others} ${others === 1 ? "other" : "others"}` };
  }
  return { kind: "heroes", name: joinNames(shown) };
}

/** A member for name disambiguation. */
export interface NamedMember {
  readonly userId: string;
  /** content.displayname of their m.room.member event (untrusted). */
  readonly displayName?: unknown;
  readonly membership?: unknown;
}

const COUNTED_MEMBERSHIPS: ReadonlySet<unknown> = new Set(["join", "invite"]);

/** The display name a member event declares, or undefined when empty or not a string. */
export function declaredDisplayName(displayName: unknown): string | undefined {
  return typeof displayName === "string" && displayName.trim() !== "" ? displayName : undefined;
}

/**
 * The shown name of every member: the user id when they have no display
 * name; the display name when no other joined or invited member uses it;
 * else "Name (@user:server)". A display name that looks like a user id is
 * always disambiguated, so nobody can pose as someone else.
 */
export function disambiguatedNames(members: Iterable<NamedMember>): Map<string, string> {
  const list = [...members];
  const uses = new Map<string, number>();
  for (const m of list) {
    const name = declaredDisplayName(m.displayName);
    if (name !== undefined && COUNTED_MEMBERSHIPS.has(m.membership))
      uses.set(name, (uses.get(name) ?? 0) + 1);
  }
  const out = new Map<string, string>();
  for (const m of list) {
    const name = declaredDisplayName(m.displayName);
    if (name === undefined) out.set(m.userId, m.userId);
    else if ((uses.get(name) ?? 0) > 1 || isUserId(name.trim())) out.set(m.userId, `${name} (${m.userId})`);
    else out.set(m.userId, name);
  }
  return out;
}

/**
 * The avatar to show for a room: its m.room.avatar url, or in a DM the other
 * member's avatar. Undefined when there is none.
 */
export function roomAvatarUrl(avatarContent: unknown, dmPartnerAvatarUrl?: unknown): string | undefined {
  const url = ownString(avatarContent, "url");
  if (url !== undefined && url !== "") return url;
  return typeof dmPartnerAvatarUrl === "string" && dmPartnerAvatarUrl !== "" ? dmPartnerAvatarUrl : undefined;
}
