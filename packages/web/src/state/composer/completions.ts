/**
 * Autocomplete for the composer: which trigger the caret is in ("@" users,
 * "#" rooms, ":" emoji shortcodes, "/" commands at the start), and the
 * suggestions for it. Pure functions over plain inputs; the view model
 * feeds them the room's members, the rooms with aliases and the emoji index.
 */
import { matchCommands } from "./commands";
import type { TrackedMention } from "./drafts";
import type { EmojiIndex } from "./emoji";

/** What the caret is completing. */
export type CompletionKind = "user" | "room" | "emoji" | "command";

/** The text range a completion replaces, and what it searches for. */
export interface Trigger {
  readonly kind: CompletionKind;
  readonly query: string;
  /** Start (inclusive) and end (exclusive) of the replaced text, trigger character included. */
  readonly start: number;
  readonly end: number;
}

/** One suggestion. */
export interface Suggestion {
  readonly key: string;
  readonly kind: CompletionKind;
  /** The main line (display name, alias, emoji + shortcode, /command). */
  readonly label: string;
  /** The second line (user id, room name, description key for commands). */
  readonly detail?: string;
  /** What replaces the trigger's range. */
  readonly insert: string;
  /** Set for users and rooms: the mention that becomes a link. */
  readonly mention?: TrackedMention;
  /** For avatars (users and rooms). */
  readonly avatar?: { readonly id: string; readonly name: string; readonly mxc?: string };
}

/** Finds the trigger the caret is in, if any. */
export function findTrigger(text: string, caret: number): Trigger | null {
  const before = text.slice(0, caret);
  const command = /^\/([a-z]*)$/i.exec(before);
  if (command !== null) return { kind: "command", query: command[1] ?? "", start: 0, end: caret };
  const m = /(?:^|\s)([@#:])([^\s@#:]*)$/.exec(before);
  if (m === null) return null;
  const char = m[1];
  const query = m[2] ?? "";
  const start = caret - query.length - 1;
  if (char === "@") return { kind: "user", query, start, end: caret };
  if (char === "#") return { kind: "room", query, start, end: caret };
  // Shortcodes need two characters, so "a: b" or "12:30" do not pop a list.
  if (/^[a-z0-9_+-]{2,}$/i.test(query)) return { kind: "emoji", query, start, end: caret };
  return null;
}

/** A member as the user completion needs it. */
export interface MemberLike {
  readonly userId: string;
  readonly name: string;
  readonly avatarUrl?: string;
}

/** A room as the room completion needs it. */
export interface RoomLike {
  readonly roomId: string;
  readonly name: string;
  readonly alias?: string;
  readonly avatarUrl?: string;
}

const LIMIT = 8;

function rank(haystacks: readonly string[], query: string): number {
  const q = query.toLowerCase();
  if (q === "") return 1;
  let best = -1;
  for (const h of haystacks) {
    const s = h.toLowerCase();
    if (s.startsWith(q)) return 2;
    if (s.includes(q)) best = 1;
  }
  return best;
}

/** Users matching the query by display name or id, best first (the current user last). */
export function suggestUsers(members: Iterable<MemberLike>, query: string, self?: string): Suggestion[] {
  const scored: Array<[number, MemberLike]> = [];
  for (const m of members) {
    const r = rank([m.name, m.userId, m.userId.slice(1)], query);
    if (r >= 0) scored.push([r - (m.userId === self ? 2 : 0), m]);
  }
  scored.sort((a, b) => b[0] - a[0] || a[1].name.localeCompare(b[1].name));
  return scored.slice(0, LIMIT).map(([, m]) => ({
    key: m.userId,
    kind: "user",
    label: m.name,
    detail: m.userId,
    insert: m.name,
    mention: { label: m.name, target: m.userId },
    avatar: { id: m.userId, name: m.name, ...(m.avatarUrl !== undefined ? { mxc: m.avatarUrl } : {}) },
  }));
}

/** Rooms with an alias matching the query by alias or name. */
export function suggestRooms(rooms: Iterable<RoomLike>, query: string): Suggestion[] {
  const scored: Array<[number, RoomLike & { alias: string }]> = [];
  for (const r of rooms) {
    if (r.alias === undefined) continue;
    const score = rank([r.alias.slice(1), r.name], query);
    if (score >= 0) scored.push([score, { ...r, alias: r.alias }]);
  }
  scored.sort((a, b) => b[0] - a[0] || a[1].alias.localeCompare(b[1].alias));
  return scored.slice(0, LIMIT).map(([, r]) => ({
    key: r.roomId,
    kind: "room",
    label: r.alias,
    detail: r.name,
    insert: r.alias,
    mention: { label: r.alias, target: r.alias },
    avatar: { id: r.roomId, name: r.name, ...(r.avatarUrl !== undefined ? { mxc: r.avatarUrl } : {}) },
  }));
}

/** Emoji whose shortcode matches. */
export function suggestEmoji(index: EmojiIndex, query: string): Suggestion[] {
  return index.search(query, LIMIT).map((e) => ({
    key: e.unicode,
    kind: "emoji",
    label: `${e.unicode} :${e.shortcodes[0] ?? e.label}:`,
    detail: e.label,
    insert: e.unicode,
  }));
}

/** Commands starting with the query; `detail` is the description's i18n key. */
export function suggestCommands(query: string): Suggestion[] {
  return matchCommands(query).map((c) => ({
    key: c.name,
    kind: "command",
    label: `/${c.name} ${c.args}`.trim(),
    detail: c.descriptionKey,
    insert: `/${c.name} `,
  }));
}

/** The joined rooms with their canonical alias, for "#" completion. */
export function roomsWithAliases(
  rooms: Iterable<{
    getSnapshot(): {
      roomId: string;
      category: string;
      name: { name: string };
      avatarUrl?: string;
      state: { content(type: string): Record<string, unknown> | undefined };
    };
  }>,
): RoomLike[] {
  const out: RoomLike[] = [];
  for (const room of rooms) {
    const snap = room.getSnapshot();
    if (snap.category !== "join") continue;
    const alias = snap.state.content("m.room.canonical_alias")?.["alias"];
    out.push({
      roomId: snap.roomId,
      name: snap.name.name,
      ...(typeof alias === "string" ? { alias } : {}),
      ...(snap.avatarUrl !== undefined ? { avatarUrl: snap.avatarUrl } : {}),
    });
  }
  return out;
}
