/**
 * The wire forms of a call's raised hands and reactions, as Element Call
 * sends and reads them (docs/architecture/0030):
 *
 * - a raised hand is an `m.reaction` annotation on the sender's own call
 *   membership event (the state event, or the sticky MSC4354 event in the
 *   sticky form) with the key RAISED_HAND_KEY; lowering it redacts it;
 * - a reaction is an `io.element.call.reaction` event with an
 *   `m.reference` to the sender's membership event, an `emoji` and a
 *   `name` (the name picks a known reaction; an unknown name still shows
 *   its emoji).
 *
 * Parsing reads untrusted content field by field (own properties only, so
 * "__proto__" is data) and gives null for anything malformed.
 */
import type { ClientEventWithoutRoomId } from "../../api/types/events";
import { CALL_REACTION_EVENT } from "../constants";

/** The annotation key of a raised hand: U+1F590 U+FE0F, exactly as Element Call compares it. */
export const RAISED_HAND_KEY = "\u{1F590}\u{FE0F}";
/** Also read as a raised hand: the same emoji without its variation selector. */
const RAISED_HAND_BARE = "\u{1F590}";
/** How long a reaction shows on the sender's tile; another from them is ignored meanwhile (Element Call: 3000). */
export const REACTION_SHOW_MS = 3000;
/** A reaction name longer than this is not one anybody sends: it is ignored. */
export const REACTION_NAME_MAX = 64;
/** An emoji field longer than this is cut before its first grapheme is taken. */
const EMOJI_FIELD_MAX = 64;

/** One reaction a member can send: its emoji and the name peers look it up by. */
export interface ReactionOption {
  readonly emoji: string;
  readonly name: string;
}

/** The reactions the picker offers, with the names Element Call knows them by (the first five are its quick row). */
export const CALL_REACTIONS: readonly ReactionOption[] = [
  { emoji: "👍", name: "thumbsup" },
  { emoji: "🎉", name: "party" },
  { emoji: "👏", name: "clapping" },
  { emoji: "🐶", name: "dog" },
  { emoji: "🐱", name: "cat" },
  { emoji: "💡", name: "lightbulb" },
  { emoji: "🦗", name: "crickets" },
  { emoji: "👎", name: "thumbsdown" },
  { emoji: "😵‍💫", name: "dizzy" },
  { emoji: "👌", name: "ok" },
  { emoji: "🥰", name: "heart" },
  { emoji: "😄", name: "laugh" },
  { emoji: "🦌", name: "deer" },
  { emoji: "🤘", name: "rock" },
  { emoji: "👋", name: "wave" },
  { emoji: "🥁", name: "drum" },
];

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function own(obj: Json, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined;
}

function ownString(obj: Json, key: string): string | undefined {
  const v = own(obj, key);
  return typeof v === "string" ? v : undefined;
}

/** The content of raising a hand in the call whose membership event is `membershipEventId`. */
export function raisedHandContent(membershipEventId: string): Record<string, unknown> {
  return { "m.relates_to": { rel_type: "m.annotation", event_id: membershipEventId, key: RAISED_HAND_KEY } };
}

/** The content of a reaction in the call whose membership event is `membershipEventId`. */
export function reactionContent(
  membershipEventId: string,
  reaction: ReactionOption,
): Record<string, unknown> {
  return {
    "m.relates_to": { rel_type: "m.reference", event_id: membershipEventId },
    emoji: reaction.emoji,
    name: reaction.name,
  };
}

/** A raised hand as read from an event: who, on which membership, by which reaction, when. */
export interface HandEvent {
  readonly sender: string;
  readonly membershipEventId: string;
  readonly reactionEventId: string;
  readonly ts: number | undefined;
}

/** A reaction as read from an event (emoji already cut to one grapheme). */
export interface ReactionEvent {
  readonly sender: string;
  readonly membershipEventId: string;
  readonly emoji: string;
  readonly name: string;
}

function relation(event: ClientEventWithoutRoomId, relType: string): Json | null {
  if (!isObject(event.content)) return null;
  const rel = own(event.content, "m.relates_to");
  if (!isObject(rel) || own(rel, "rel_type") !== relType) return null;
  const id = own(rel, "event_id");
  return typeof id === "string" && id !== "" ? rel : null;
}

/** A raised hand (an m.reaction with the hand key), or null. */
export function parseHand(event: ClientEventWithoutRoomId): HandEvent | null {
  if (event.type !== "m.reaction" || typeof event.sender !== "string" || typeof event.event_id !== "string")
    return null;
  const rel = relation(event, "m.annotation");
  const key = rel ? own(rel, "key") : undefined;
  if (rel === null || (key !== RAISED_HAND_KEY && key !== RAISED_HAND_BARE)) return null;
  const ts = typeof event.origin_server_ts === "number" && Number.isFinite(event.origin_server_ts);
  return {
    sender: event.sender,
    membershipEventId: own(rel, "event_id") as string,
    reactionEventId: event.event_id,
    ts: ts ? event.origin_server_ts : undefined,
  };
}

/** The first grapheme of `text` (an emoji of several code points stays whole), or null when blank. */
export function firstGrapheme(text: string): string | null {
  const segments = new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(
    text.slice(0, EMOJI_FIELD_MAX),
  );
  const first = segments[Symbol.iterator]().next();
  const segment = first.done ? undefined : first.value.segment;
  return segment !== undefined && segment.trim() !== "" ? segment : null;
}

/** A call reaction, or null when malformed (no relation, no emoji, a name that is not a short string). */
export function parseReaction(event: ClientEventWithoutRoomId): ReactionEvent | null {
  if (event.type !== CALL_REACTION_EVENT || typeof event.sender !== "string") return null;
  const rel = relation(event, "m.reference");
  if (rel === null || !isObject(event.content)) return null;
  const rawEmoji = ownString(event.content, "emoji");
  const emoji = rawEmoji === undefined ? null : firstGrapheme(rawEmoji);
  const rawName = own(event.content, "name");
  // Element Call sends a name with every reaction; a missing one is an unknown reaction, not an error.
  const name = rawName === undefined ? "" : rawName;
  if (emoji === null || typeof name !== "string" || name.length > REACTION_NAME_MAX) return null;
  return { sender: event.sender, membershipEventId: own(rel, "event_id") as string, emoji, name };
}

/** The id a redaction removes (top-level `redacts`, or content.redacts from room version 11), or null. */
export function redactedId(event: ClientEventWithoutRoomId): string | null {
  if (event.type !== "m.room.redaction") return null;
  if (typeof event.redacts === "string") return event.redacts;
  const inContent = isObject(event.content) ? own(event.content, "redacts") : undefined;
  return typeof inContent === "string" ? inContent : null;
}

/** The known reaction called `name`, if any. */
export function knownReaction(name: string): ReactionOption | undefined {
  return CALL_REACTIONS.find((r) => r.name === name);
}
