/**
 * State changes in words: one sentence per state event ("alice joined",
 * "bob changed the topic to …") and one per run of membership changes
 * ("alice, bob and 3 others joined"). Content is untrusted JSON: every
 * field is checked before it is read. Strings come from the "timeline"
 * namespace.
 */
import { t } from "../../i18n/i18n";
import type { TimelineItem } from "../../sdk";

/** A member's display name (disambiguated by the SDK) from a user id. */
export type NameOf = (userId: string) => string;

function str(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function tl(key: string, vars?: Record<string, string | number>): string {
  return t("timeline", key, vars);
}

/** State event types the timeline shows as a summary line. */
export const SUMMARISED_STATE: ReadonlySet<string> = new Set([
  "m.room.member",
  "m.room.name",
  "m.room.topic",
  "m.room.create",
  "m.room.avatar",
  "m.room.encryption",
  "m.room.join_rules",
  "m.room.history_visibility",
  "m.room.power_levels",
  "m.room.canonical_alias",
  "m.room.pinned_events",
  "m.room.guest_access",
  "m.room.tombstone",
]);

/** What a membership event did, for grouping runs. */
export type MembershipChange = "joined" | "left" | "invited" | "banned" | "removed" | "profile" | "other";

/** Classifies a membership event against its previous content (unsigned.prev_content). */
export function membershipChangeOf(item: TimelineItem): MembershipChange {
  const c = item.content;
  const prev = prevContentOf(item);
  const now = str(c["membership"]);
  const before = str(prev?.["membership"]);
  const target = item.stateKey ?? item.sender;
  if (now === "join") return before === "join" ? "profile" : "joined";
  if (now === "leave") return target === item.sender ? "left" : before === "ban" ? "other" : "removed";
  if (now === "invite") return "invited";
  if (now === "ban") return "banned";
  return "other";
}

function prevContentOf(item: TimelineItem): Record<string, unknown> | undefined {
  const unsigned = item.event.unsigned;
  const prev = unsigned?.["prev_content"];
  return typeof prev === "object" && prev !== null ? prev : undefined;
}

/** The sentence of one membership event. */
export function memberSummary(item: TimelineItem, nameOf: NameOf): string {
  const c = item.content;
  const target = item.stateKey ?? item.sender;
  const prev = prevContentOf(item);
  const name = str(c["displayname"]) ?? nameOf(target);
  const actor = nameOf(item.sender);
  const reason = str(c["reason"]);
  const now = str(c["membership"]);
  const before = str(prev?.["membership"]);
  switch (now) {
    case "join": {
      if (before !== "join") return tl("joined", { name });
      const oldName = str(prev?.["displayname"]);
      const newName = str(c["displayname"]);
      if (oldName !== newName) {
        if (newName === undefined) return tl("removed_name", { old: oldName ?? target });
        if (oldName === undefined) return tl("set_name", { id: target, name: newName });
        return tl("changed_name", { old: oldName, name: newName });
      }
      return tl("changed_avatar", { name });
    }
    case "leave":
      if (target === item.sender) return tl(before === "invite" ? "rejected_invite" : "left", { name });
      if (before === "ban") return tl("unbanned", { actor, name });
      if (before === "invite") return tl("withdrew_invite", { actor, name });
      return reason !== undefined
        ? tl("removed_reason", { actor, name, reason })
        : tl("removed", { actor, name });
    case "invite":
      return tl("invited", { actor, name });
    case "ban":
      return reason !== undefined
        ? tl("banned_reason", { actor, name, reason })
        : tl("banned", { actor, name });
    case "knock":
      return tl("knocked", { name });
    default:
      return tl("membership_other", { name });
  }
}

/** The sentence of one state event, or null for a type the timeline does not show. */
export function stateSummary(item: TimelineItem, nameOf: NameOf): string | null {
  if (!SUMMARISED_STATE.has(item.type)) return null;
  const c = item.content;
  const actor = nameOf(item.sender);
  switch (item.type) {
    case "m.room.member":
      return memberSummary(item, nameOf);
    case "m.room.name": {
      const name = str(c["name"]);
      return name === undefined ? tl("room_name_removed", { actor }) : tl("room_name", { actor, name });
    }
    case "m.room.topic": {
      const topic = str(c["topic"]);
      return topic === undefined ? tl("room_topic_removed", { actor }) : tl("room_topic", { actor, topic });
    }
    case "m.room.create":
      return tl("room_create", { actor });
    case "m.room.avatar":
      return tl("room_avatar", { actor });
    case "m.room.encryption":
      return tl("room_encryption", { actor });
    case "m.room.join_rules":
      return tl("room_join_rules", { actor, rule: str(c["join_rule"]) ?? "?" });
    case "m.room.history_visibility":
      return tl("room_history", { actor });
    case "m.room.power_levels":
      return tl("room_power", { actor });
    case "m.room.canonical_alias":
      return tl("room_aliases", { actor });
    case "m.room.pinned_events":
      return tl("room_pinned", { actor });
    case "m.room.guest_access":
      return tl("room_guest", { actor });
    case "m.room.tombstone":
      return tl("room_tombstone", { actor });
    default:
      return tl("room_state_other", { actor });
  }
}

/** "a", "a and b", "a, b and c", "a, b and 3 others". */
export function nameList(names: readonly string[]): string {
  const [a = "", b = "", c = ""] = names;
  if (names.length <= 1) return a;
  if (names.length === 2) return tl("names_two", { a, b });
  if (names.length === 3) return tl("names_three", { a, b, c });
  return tl("names_more", { a, b, count: names.length - 2 });
}

/**
 * The sentence of a run of membership events: "alice, bob and 3 others
 * joined" when they all joined (or all left), otherwise a count.
 */
export function groupSummary(items: readonly TimelineItem[], nameOf: NameOf): string {
  const changes = new Set(items.map(membershipChangeOf));
  const names = [...new Set(items.map((i) => nameOf(i.stateKey ?? i.sender)))];
  if (changes.size === 1 && changes.has("joined")) return tl("group_joined", { names: nameList(names) });
  if (changes.size === 1 && changes.has("left")) return tl("group_left", { names: nameList(names) });
  return tl("group_changes", { count: items.length });
}

/**
 * The one line of a room's creation: the m.room.create event and the
 * creator's setup state after it, "alice created and configured the room.".
 */
export function creationSummary(create: TimelineItem, nameOf: NameOf): string {
  return tl("room_created_configured", { actor: nameOf(create.sender) });
}

/** The typing line: one, two or several people, or null when nobody types. */
export function typingSummary(names: readonly string[]): string | null {
  const [a = "", b = ""] = names;
  if (names.length === 0) return null;
  if (names.length === 1) return tl("typing_one", { a });
  if (names.length === 2) return tl("typing_two", { a, b });
  return tl("typing_many");
}
