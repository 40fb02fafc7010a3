/**
 * Replies, thread membership and undecryptable events. A reply names its
 * parent in m.in_reply_to, except inside a thread where is_falling_back marks
 * that as a fallback for clients without threads. Reply fallbacks (quoted
 * lines in body, <mx-reply> in formatted_body) are stripped before display.
 * A failed decryption is shown as '** Unable to decrypt: <reason> **'.
 */
import type { EventContent } from "../api/types/events";
import { copyObject, isJsonObject, own, ownObject, ownString } from "./json";
import { relationOf } from "./relations";

/** The event a message replies to, or undefined (a thread fallback is not a reply). */
export function replyTargetOf(event: { content?: unknown }): string | undefined {
  const rel = relationOf(event);
  if (rel?.inReplyTo === undefined) return undefined;
  if (rel.relType === "m.thread" && rel.isFallingBack) return undefined;
  return rel.inReplyTo;
}

/** The body without a leading reply fallback: quoted ("> ") lines and the blank line after them. */
export function stripPlainReplyFallback(body: string): string {
  const lines = body.split("\n");
  let i = 0;
  while (i < lines.length && (lines[i] ?? "").startsWith("> ")) i++;
  if (i === 0) return body;
  if (lines[i] === "") i++;
  return lines.slice(i).join("\n");
}

/** The HTML without a leading <mx-reply>…</mx-reply> block. */
export function stripHtmlReplyFallback(html: string): string {
  const start = html.search(/\S/);
  if (start < 0 || !html.startsWith("<mx-reply>", start)) return html;
  const close = html.indexOf("</mx-reply>", start);
  return close < 0 ? html : html.slice(close + "</mx-reply>".length);
}

/** A reply's content with its fallbacks stripped; other content unchanged. */
export function stripReplyFallback(content: EventContent): EventContent {
  if (!isJsonObject(ownObject(ownObject(content, "m.relates_to"), "m.in_reply_to"))) return content;
  const out = copyObject(content);
  const body = ownString(content, "body");
  if (body !== undefined) out["body"] = stripPlainReplyFallback(body);
  const html = ownString(content, "formatted_body");
  if (html !== undefined && ownString(content, "format") === "org.matrix.custom.html") {
    out["formatted_body"] = stripHtmlReplyFallback(html);
  }
  return out;
}

/** Where an event sits relative to threads. */
export interface ThreadMembership {
  /** The thread root this event belongs to, if it is in a thread. */
  readonly threadRootId?: string;
  /** Whether its m.in_reply_to is only a fallback for clients without threads. */
  readonly isFallingBack: boolean;
}

/** The thread an event belongs to (m.thread relation), if any. */
export function threadMembershipOf(event: { content?: unknown }): ThreadMembership {
  const rel = relationOf(event);
  if (rel?.relType !== "m.thread" || rel.eventId === undefined) return { isFallingBack: false };
  return { threadRootId: rel.eventId, isFallingBack: rel.isFallingBack };
}

/** A thread's summary as the server bundles it on the root (unsigned["m.relations"]["m.thread"]). */
export interface BundledThreadSummary {
  readonly count: number;
  readonly currentUserParticipated: boolean;
  readonly latestEvent?: unknown;
}

/** The bundled thread summary on a thread root, validated; undefined when absent or malformed. */
export function bundledThreadSummary(event: { unsigned?: unknown }): BundledThreadSummary | undefined {
  const thread = ownObject(ownObject(event.unsigned, "m.relations"), "m.thread");
  const count = own(thread, "count");
  if (thread === undefined || typeof count !== "number" || !Number.isInteger(count) || count < 0)
    return undefined;
  const latest = own(thread, "latest_event");
  return {
    count,
    currentUserParticipated: own(thread, "current_user_participated") === true,
    ...(isJsonObject(latest) ? { latestEvent: latest } : {}),
  };
}

/** The body shown for an event that could not be decrypted (SPEC §8). */
export function undecryptableBody(reason: string): string {
  return `** Unable to decrypt: ${reason} **`;
}

/** The content of the m.bad.encrypted message shown in place of an undecryptable event. */
export function badEncryptedContent(reason: string): EventContent {
  return { msgtype: "m.bad.encrypted", body: undecryptableBody(reason) };
}
