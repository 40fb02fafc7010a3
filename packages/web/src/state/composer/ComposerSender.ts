/**
 * What the composer sends and what its reply/edit banner shows: message
 * content with its mentions (matrix.to links in the HTML, m.mentions), the
 * reply or thread relation, edits pointed at their target (a local echo
 * included), and the banner's target looked up in the loaded events, the
 * room or, after a reload, the server. ComposerViewModel owns one per
 * composer; everything goes out through the SDK's send queue (local echo).
 */
import { getEvent } from "../../sdk";
import type { Client, PendingEvent, Room, TimelineItem } from "../../sdk";
import { editContent, mentionedUserIds, messageContent } from "./content";
import type { Content, MessageRelation } from "./content";
import { findMessage } from "./editable";
import type { OwnMessage } from "./editable";
import type { TrackedMention } from "./drafts";
import { renderMarkdown } from "./markdown";

/** The event a reply or edit is about, as the banner shows it. */
export interface ModeTarget {
  readonly eventId: string;
  readonly sender: string;
  readonly senderName: string;
  /** A one-line preview of its text ("" until loaded). */
  readonly preview: string;
}

/** What /devtools shows of the room. */
export interface DevtoolsView {
  readonly roomId: string;
  readonly version: string;
  readonly state: ReadonlyArray<{ type: string; stateKey: string; content: unknown }>;
}

/** Where the sender writes: the client's queue and HTTP, the room, the thread. */
export interface SenderOptions {
  readonly client: Pick<Client, "userId" | "http" | "sendQueue">;
  readonly room: Room;
  readonly threadRootId?: string | undefined;
  /** The loaded events, oldest first. */
  readonly events: () => readonly TimelineItem[];
}

/** The link a mention's label becomes in the HTML. */
function mentionHref(target: string): string {
  return `https://matrix.to/#/${target}`;
}

/** Builds and sends the composer's content; see the file overview. */
export class ComposerSender {
  constructor(private readonly options: SenderOptions) {}

  private get roomId(): string {
    return this.options.room.roomId;
  }

  /** Content made by a command (/plain, /html, /spoiler, /rainbow): no markdown, the reply or thread kept. */
  sendRendered(
    message: { body: string; formattedBody?: string },
    msgtype: "m.text" | "m.emote",
    replyTo: string | undefined,
  ): void {
    this.sendContent(messageContent(message, { msgtype, relation: this.relation(replyTo) }));
  }

  /** Markdown text with its mentions: a new message, a reply, or an edit of `edit`. */
  async sendMessage(
    text: string,
    msgtype: "m.text" | "m.emote",
    mentions: readonly TrackedMention[],
    target: { reply?: ModeTarget; edit?: ModeTarget },
  ): Promise<void> {
    const mentionTargets = mentions.filter((m) => text.includes(m.label));
    const links = mentionTargets.map((m) => ({ label: m.label, href: mentionHref(m.target) }));
    const users = mentionTargets.filter((m) => m.target.startsWith("@")).map((m) => m.target);
    const rendered = await renderMarkdown(text, links);
    if (target.edit !== undefined) {
      const targetId = target.edit.eventId;
      const original = this.findMessage(targetId);
      const kind = original?.content["msgtype"] === "m.emote" ? "m.emote" : msgtype;
      const content = editContent(targetId, rendered, {
        msgtype: kind,
        mentions: users,
        previousMentions: mentionedUserIds(original?.content),
      });
      // The target may be a local echo still on its way: the queue points the edit at its id once known.
      this.options.client.sendQueue.sendRelated(this.roomId, "m.room.message", content, targetId);
      return;
    }
    const replyTo = target.reply;
    // A reply mentions the replied-to sender (unless that is us).
    if (replyTo !== undefined && replyTo.sender !== this.options.client.userId) users.push(replyTo.sender);
    this.sendContent(
      messageContent(rendered, { msgtype, mentions: users, relation: this.relation(replyTo?.eventId) }),
    );
  }

  /** The relation fields of an attachment (thread and reply), or none. */
  relationFields(replyTo: string | undefined): Content {
    const content = messageContent({ body: "" }, { relation: this.relation(replyTo) });
    return content["m.relates_to"] !== undefined ? { "m.relates_to": content["m.relates_to"] } : {};
  }

  sendContent(content: Content): void {
    this.options.client.sendQueue.send(this.roomId, "m.room.message", content);
  }

  /** This room's (or thread's) local echoes, in send order. */
  pending(): readonly PendingEvent[] {
    return this.options.client.sendQueue.room(this.roomId).getSnapshot();
  }

  /** A loaded message or a local echo (with queued edits applied to the user's own). */
  findMessage(eventId: string): OwnMessage | undefined {
    return findMessage(eventId, this.options.events(), this.pending(), this.options.client.userId);
  }

  /** The banner's target from what is loaded (sender "" when not found). */
  targetOf(eventId: string): ModeTarget {
    const message = this.findMessage(eventId);
    const event = message === undefined ? this.options.room.findEvent(eventId) : undefined;
    const sender = message?.sender ?? event?.sender ?? "";
    const content = message?.content ?? event?.content;
    const body = typeof content?.["body"] === "string" ? content["body"] : "";
    return {
      eventId,
      sender,
      senderName: this.options.room.getSnapshot().members.get(sender)?.name ?? sender,
      preview: body.split("\n")[0]?.slice(0, 200) ?? "",
    };
  }

  /** Fetches a target the timeline has not loaded (a draft restored after a reload); null on failure. */
  async fetchTarget(eventId: string): Promise<ModeTarget | null> {
    try {
      const event = await getEvent(this.options.client.http, this.roomId, eventId);
      const body = typeof event.content["body"] === "string" ? event.content["body"] : "";
      const senderName = this.options.room.getSnapshot().members.get(event.sender)?.name ?? event.sender;
      return { eventId, sender: event.sender, senderName, preview: body.split("\n")[0] ?? "" };
    } catch {
      // The banner keeps showing what it knows; the reply still works.
      return null;
    }
  }

  /** The room as /devtools shows it: id, version and every state event. */
  devtoolsView(): DevtoolsView {
    const state = this.options.room.getSnapshot().state;
    const version = state.content("m.room.create")?.["room_version"];
    return {
      roomId: this.roomId,
      version: typeof version === "string" ? version : "1",
      state: state
        .types()
        .flatMap((type) =>
          [...state.ofType(type).entries()].map(([stateKey, e]) => ({ type, stateKey, content: e.content })),
        ),
    };
  }

  private relation(replyTo: string | undefined): MessageRelation {
    const rootId = this.options.threadRootId;
    if (rootId === undefined) return replyTo !== undefined ? { replyTo } : {};
    const events = this.options.events();
    const latest = events[events.length - 1]?.eventId ?? rootId;
    return { ...(replyTo !== undefined ? { replyTo } : {}), thread: { rootId, latestInThread: latest } };
  }
}
