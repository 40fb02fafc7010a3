/**
 * One-line summaries of events, for the room list's preview and for state
 * events in the timeline ("alice joined"). Content is untrusted JSON: every
 * field is checked before it is read. The room list previews the SDK's
 * preview event (no reactions or redactions; the last message stays), an
 * edit as its edited text (m.new_content, not the "* " fallback), and an
 * undecryptable message as "Encrypted message". A summary is at most
 * PREVIEW_MAX_CHARS long: a room list row holding a whole 20,000-character
 * message would be shaped whole, ellipsis or not, at the cost measured in
 * html/renderBudget.ts.
 */
import { cutAt } from "./html/renderBudget";

/** Longest summary: a row shows one line anyway. */
export const PREVIEW_MAX_CHARS = 200;

interface EventLike {
  readonly type: string;
  readonly sender: string;
  readonly content: Readonly<Record<string, unknown>>;
  readonly state_key?: string;
}

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** A member's name from a resolver, the id otherwise. */
export type NameOf = (userId: string) => string;

/** Event types the timeline summarises; other non-message events are not shown. */
const SUMMARISED_TYPES: ReadonlySet<string> = new Set([
  "m.room.message",
  "m.room.encrypted",
  "m.sticker",
  "m.room.member",
  "m.room.name",
  "m.room.topic",
  "m.room.create",
  "m.room.avatar",
  "m.room.encryption",
]);

/**
 * The text of a message event (emotes as "* name text"), a summary of a
 * state change, or null for an event the timeline does not show.
 */
export function previewOf(event: EventLike, nameOf: NameOf = (id) => id): string | null {
  const summary = summaryOf(event, nameOf);
  return summary === null ? null : cutAt(summary, PREVIEW_MAX_CHARS);
}

function summaryOf(event: EventLike, nameOf: NameOf): string | null {
  if (!SUMMARISED_TYPES.has(event.type)) return null;
  const c = editedContentOf(event.content) ?? event.content;
  const who = nameOf(event.sender);
  switch (event.type) {
    case "m.room.message": {
      const body = str(c["body"]) ?? "";
      const msgtype = str(c["msgtype"]);
      // An undecryptable message: never its engine reason (SPEC §8's stand-in body) in the list.
      if (msgtype === "m.bad.encrypted") return "Encrypted message";
      if (msgtype === "m.emote") return `* ${who} ${body}`;
      if (msgtype === "m.image") return `${who} sent an image`;
      if (msgtype === "m.file") return `${who} sent a file`;
      if (msgtype === "m.video") return `${who} sent a video`;
      if (msgtype === "m.audio") return `${who} sent an audio clip`;
      return body;
    }
    case "m.room.encrypted":
      return "Encrypted message";
    case "m.sticker":
      return `${who} sent a sticker`;
    case "m.room.member":
      return memberChange(event, nameOf);
    case "m.room.name":
      return `${who} changed the room name to ${str(c["name"]) ?? ""}`.trim();
    case "m.room.topic":
      return `${who} changed the topic`;
    case "m.room.create":
      return `${who} created the room`;
    case "m.room.avatar":
      return `${who} changed the room avatar`;
    case "m.room.encryption":
      return `${who} turned on end-to-end encryption`;
    default:
      return null;
  }
}

function memberChange(event: EventLike, nameOf: NameOf): string {
  const target = event.state_key ?? event.sender;
  const name = str(event.content["displayname"]) ?? nameOf(target);
  switch (str(event.content["membership"])) {
    case "join":
      return `${name} joined`;
    case "leave":
      return target === event.sender ? `${name} left` : `${nameOf(event.sender)} removed ${name}`;
    case "invite":
      return `${nameOf(event.sender)} invited ${name}`;
    case "ban":
      return `${nameOf(event.sender)} banned ${name}`;
    case "knock":
      return `${name} asked to join`;
    default:
      return `${name} changed their membership`;
  }
}

/** An edit's replacement content (m.new_content), when the event is a well-formed edit. */
function editedContentOf(
  content: Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> | null {
  const rel = content["m.relates_to"];
  if (rel === null || typeof rel !== "object" || (rel as Record<string, unknown>)["rel_type"] !== "m.replace")
    return null;
  const next = content["m.new_content"];
  return next !== null && typeof next === "object" && !Array.isArray(next)
    ? (next as Readonly<Record<string, unknown>>)
    : null;
}

/** What the room list preview reads of a room. */
export interface PreviewRoom {
  readonly previewEvent?: EventLike;
  readonly state: { content(type: string): Readonly<Record<string, unknown>> | undefined };
}

/** A room's preview line: its preview event's summary, else its topic, else nothing. */
export function roomPreviewOf(room: PreviewRoom, nameOf: NameOf = (id) => id): string {
  const latest = room.previewEvent !== undefined ? previewOf(room.previewEvent, nameOf) : null;
  if (latest !== null) return latest;
  const topic = room.state.content("m.room.topic")?.["topic"];
  return typeof topic === "string" ? cutAt(topic, PREVIEW_MAX_CHARS) : "";
}
