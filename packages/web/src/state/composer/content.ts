/**
 * Message content shapes the composer sends (the m.room.message schema of
 * the spec): text and emotes with their optional HTML, the intentional
 * mentions (m.mentions), replies (m.in_reply_to, no fallback in the body,
 * as the current spec asks), thread replies (m.thread with is_falling_back
 * or an explicit in-reply-to), and edits (m.new_content + m.replace, the
 * outer body starred for clients without edit support).
 */
import type { RenderedMessage } from "./markdown";

/** A JSON object of event content. */
export type Content = Record<string, unknown>;

/** Where a message goes relative to other events. */
export interface MessageRelation {
  /** Replying to this event. */
  readonly replyTo?: string;
  /** Inside this thread; `latestInThread` is the in-reply-to fallback when not replying. */
  readonly thread?: { readonly rootId: string; readonly latestInThread: string };
}

/** The m.mentions of a message. */
export function mentionsOf(userIds: Iterable<string>, room = false): Content {
  const ids = [...new Set(userIds)];
  return { ...(ids.length > 0 ? { user_ids: ids } : {}), ...(room ? { room: true } : {}) };
}

function formatted(message: RenderedMessage): Content {
  return message.formattedBody === undefined
    ? {}
    : { format: "org.matrix.custom.html", formatted_body: message.formattedBody };
}

/** The relation object for a reply and/or thread (undefined for a plain message). */
export function relatesTo(relation: MessageRelation): Content | undefined {
  const { replyTo, thread } = relation;
  if (thread !== undefined) {
    return {
      rel_type: "m.thread",
      event_id: thread.rootId,
      is_falling_back: replyTo === undefined,
      "m.in_reply_to": { event_id: replyTo ?? thread.latestInThread },
    };
  }
  return replyTo !== undefined ? { "m.in_reply_to": { event_id: replyTo } } : undefined;
}

/** A text (or emote) message. */
export function messageContent(
  message: RenderedMessage,
  options: { msgtype?: "m.text" | "m.emote"; mentions?: Iterable<string>; relation?: MessageRelation } = {},
): Content {
  const rel = options.relation !== undefined ? relatesTo(options.relation) : undefined;
  return {
    msgtype: options.msgtype ?? "m.text",
    body: message.body,
    ...formatted(message),
    "m.mentions": mentionsOf(options.mentions ?? []),
    ...(rel !== undefined ? { "m.relates_to": rel } : {}),
  };
}

/**
 * An edit of `eventId`. The new content carries every mention; the outer
 * m.mentions only those the original did not have, so nobody is pinged
 * twice.
 */
export function editContent(
  eventId: string,
  message: RenderedMessage,
  options: {
    msgtype?: "m.text" | "m.emote";
    mentions?: Iterable<string>;
    previousMentions?: Iterable<string>;
  } = {},
): Content {
  const all = [...new Set(options.mentions ?? [])];
  const before = new Set(options.previousMentions ?? []);
  const msgtype = options.msgtype ?? "m.text";
  const starred: RenderedMessage = {
    body: `* ${message.body}`,
    ...(message.formattedBody !== undefined ? { formattedBody: `* ${message.formattedBody}` } : {}),
  };
  return {
    msgtype,
    body: starred.body,
    ...formatted(starred),
    "m.mentions": mentionsOf(all.filter((id) => !before.has(id))),
    "m.new_content": { msgtype, body: message.body, ...formatted(message), "m.mentions": mentionsOf(all) },
    "m.relates_to": { rel_type: "m.replace", event_id: eventId },
  };
}

/** The user ids an event's m.mentions names (untrusted content). */
export function mentionedUserIds(content: Content | undefined): string[] {
  const m = content?.["m.mentions"];
  const ids = typeof m === "object" && m !== null ? (m as Content)["user_ids"] : undefined;
  return Array.isArray(ids) ? ids.filter((x): x is string => typeof x === "string") : [];
}
