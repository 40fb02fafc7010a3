/**
 * The composer of a room (or of one thread): the text and its caret, the
 * autocomplete (users, rooms, emoji shortcodes, slash commands), reply and
 * edit modes, slash commands, markdown rendering on send, typing notices,
 * attachments (ComposerUploads) and the draft kept per room across reloads.
 * Everything goes out through the SDK client's send queue (local echo) and
 * services; components only call its methods and read its observables.
 */
import { getEvent, ObservableValue } from "../sdk";
import type { Client, KeyValueStorage, PendingEvent, Room, TimelineItem } from "../sdk";
import { t } from "../i18n/i18n";
import { parseInput } from "./composer/commands";
import type { Command } from "./composer/commands";
import { CommandFailure, runAction } from "./composer/runCommand";
import type { CommandClient } from "./composer/runCommand";
import { describeFailure } from "./rooms/failure";
import {
  findTrigger,
  roomsWithAliases,
  suggestCommands,
  suggestEmoji,
  suggestRooms,
  suggestUsers,
} from "./composer/completions";
import type { Suggestion, Trigger } from "./composer/completions";
import { TypingNotifier } from "./composer/typing";
import { editContent, mentionedUserIds, messageContent } from "./composer/content";
import type { Content, MessageRelation } from "./composer/content";
import { findMessage, lastEditable } from "./composer/editable";
import type { OwnMessage } from "./composer/editable";
import { draftKey, loadDraft, saveDraft } from "./composer/drafts";
import type { DraftMode, TrackedMention } from "./composer/drafts";
import { loadEmojiIndex, rememberEmoji } from "./composer/emoji";
import type { EmojiIndex } from "./composer/emoji";
import { preloadMarkdown, renderMarkdown } from "./composer/markdown";
import { ComposerUploads } from "./ComposerUploads";
import type { MediaProbe } from "./composer/attachments";

/** The parts of the SDK client the composer uses. */
export type ComposerClient = Pick<Client, "typing"> & CommandClient;

/** The event a reply or edit is about, as the banner shows it. */
export interface ModeTarget {
  readonly eventId: string;
  readonly sender: string;
  readonly senderName: string;
  /** A one-line preview of its text ("" until loaded). */
  readonly preview: string;
}

/** The composer's mode. */
export type ComposerMode =
  | { readonly kind: "normal" }
  | { readonly kind: "reply"; readonly target: ModeTarget }
  | { readonly kind: "edit"; readonly target: ModeTarget };

/** The open autocomplete list. */
export interface Completion {
  readonly trigger: Trigger;
  readonly items: readonly Suggestion[];
  readonly active: number;
}

export interface ComposerOptions {
  client: ComposerClient;
  room: Room;
  /** The loaded events, oldest first (the timeline's or thread's items): for up-arrow and banners. */
  events: () => readonly TimelineItem[];
  /** The thread this composer writes into. */
  threadRootId?: string;
  /** Where drafts and recent emoji are kept (localStorage); none keeps nothing. */
  storage?: KeyValueStorage;
  /** Decodes images for dimensions, thumbnails and blurhash (the browser's canvas). */
  probe?: MediaProbe;
  /** Called with the room id after /join succeeds (the app selects it). */
  onJoined?: (roomId: string) => void;
  /** False where typing notices cannot be sent (embedded); defaults to true. */
  sendsTyping?: boolean;
  /** False where files cannot be uploaded (a host without media): no attach button, drops ignored. */
  canUpload?: boolean;
  /** Stop typing after this long without a keystroke (ms); defaults to 10000. */
  typingIdleMs?: number;
}

/** What /devtools shows of the room. */
export interface DevtoolsView {
  readonly roomId: string;
  readonly version: string;
  readonly state: ReadonlyArray<{ type: string; stateKey: string; content: unknown }>;
}

const NORMAL: ComposerMode = { kind: "normal" };

export class ComposerViewModel {
  readonly text = new ObservableValue("");
  readonly mode = new ObservableValue<ComposerMode>(NORMAL);
  readonly completion = new ObservableValue<Completion | null>(null);
  /** The last command or send error, cleared by the next edit. */
  readonly error = new ObservableValue<string | null>(null);
  /** Where the caret should go after a programmatic change (the component applies it). */
  readonly caretRequest = new ObservableValue<{ at: number } | null>(null);
  readonly busy = new ObservableValue(false);
  /** A command's answer to show (/whois, /ignore ...), cleared by the next edit. */
  readonly notice = new ObservableValue<string | null>(null);
  /** The panel a command opened: the /help list or /devtools. */
  readonly panel = new ObservableValue<"help" | "devtools" | null>(null);
  readonly uploads: ComposerUploads;
  /** Whether files can be sent (the attach button shows). */
  readonly canUpload: boolean;
  /** Files waiting in the upload dialog. */
  readonly staged = new ObservableValue<ReadonlyArray<{ name: string; type: string; data: Blob }>>([]);
  private mentions: TrackedMention[] = [];
  /** A command's notice, shown once the composer has been cleared. */
  private pendingNotice: string | undefined;
  private caret = 0;
  private emoji: EmojiIndex | undefined;
  private textBeforeEdit: { text: string; mentions: TrackedMention[] } | undefined;
  private readonly typing: TypingNotifier;
  private disposed = false;
  private readonly key: string;

  constructor(private readonly options: ComposerOptions) {
    const { client, room, threadRootId } = options;
    this.key = draftKey(client.userId, room.roomId, threadRootId);
    this.canUpload = options.canUpload !== false;
    const typing = options.sendsTyping === false ? () => Promise.resolve() : undefined;
    this.typing = new TypingNotifier(
      typing ?? ((on) => client.typing.setTyping(room.roomId, on)),
      options.typingIdleMs,
    );
    this.uploads = new ComposerUploads({
      http: client.http,
      isEncrypted: () => room.getSnapshot().isEncrypted,
      send: (content) => this.sendContent({ ...content, ...this.relationFields(undefined) }),
      ...(options.probe ? { probe: options.probe } : {}),
    });
    this.restoreDraft();
  }

  get roomId(): string {
    return this.options.room.roomId;
  }

  get threadRootId(): string | undefined {
    return this.options.threadRootId;
  }

  /** Warms the markdown parser (call on focus). */
  preload(): void {
    void preloadMarkdown();
  }

  /** The user typed: new text and caret. */
  setText(text: string, caret: number = text.length): void {
    this.text.set(text);
    this.caret = caret;
    if (this.error.getSnapshot() !== null) this.error.set(null);
    if (this.notice.getSnapshot() !== null) this.notice.set(null);
    this.mentions = this.mentions.filter((m) => text.includes(m.label));
    this.updateCompletion();
    this.typing.update(text);
    this.persist();
  }

  /** The caret moved without a text change. */
  setCaret(caret: number): void {
    this.caret = caret;
    this.updateCompletion();
  }

  /** Moves the active suggestion (wrapping). */
  moveCompletion(delta: number): void {
    const c = this.completion.getSnapshot();
    if (c === null || c.items.length === 0) return;
    const n = c.items.length;
    this.completion.set({ ...c, active: (((c.active + delta) % n) + n) % n });
  }

  /** Inserts the active (or given) suggestion; returns whether one was inserted. */
  acceptCompletion(index?: number): boolean {
    const c = this.completion.getSnapshot();
    const item = c?.items[index ?? c.active];
    if (c === null || item === undefined) return false;
    const text = this.text.getSnapshot();
    const { start, end } = c.trigger;
    const after = text.slice(end);
    const insert =
      item.kind === "command" ? item.insert : `${item.insert}${after.startsWith(" ") ? "" : " "}`;
    const next = text.slice(0, start) + insert + after;
    if (item.mention !== undefined && !this.mentions.some((m) => m.label === item.mention?.label))
      this.mentions.push(item.mention);
    if (item.kind === "emoji") rememberEmoji(this.options.storage, item.insert);
    this.completion.set(null);
    const caret = start + insert.length;
    this.setText(next, caret);
    this.completion.set(null);
    this.caretRequest.set({ at: caret });
    return true;
  }

  /** Closes the list (Escape). Returns whether one was open. */
  dismissCompletion(): boolean {
    if (this.completion.getSnapshot() === null) return false;
    this.completion.set(null);
    return true;
  }

  /** Inserts text at the caret (the emoji picker). */
  insertAtCaret(insert: string): void {
    const text = this.text.getSnapshot();
    const at = Math.min(this.caret, text.length);
    this.setText(text.slice(0, at) + insert + text.slice(at), at + insert.length);
    this.caretRequest.set({ at: at + insert.length });
  }

  /** Inserts a mention of a user at the caret (the user panel's "Mention"): a pill when sent. */
  insertMention(userId: string, label: string): void {
    const text = this.text.getSnapshot();
    const at = Math.min(this.caret, text.length);
    const before = at > 0 && !/\s$/.test(text.slice(0, at)) ? " " : "";
    if (!this.mentions.some((m) => m.label === label)) this.mentions.push({ label, target: userId });
    this.insertAtCaret(`${before}${label} `);
  }

  /** Picks an emoji from the picker: inserted and remembered as recent. */
  insertEmoji(unicode: string): void {
    rememberEmoji(this.options.storage, unicode);
    this.insertAtCaret(unicode);
  }

  /** Starts replying to an event (the action bar's Reply). */
  startReply(eventId: string): void {
    if (this.mode.getSnapshot().kind === "edit") this.restoreTextBeforeEdit();
    this.mode.set({ kind: "reply", target: this.targetOf(eventId) });
    this.persist();
    void this.fillTarget(eventId);
  }

  /** Starts editing one of the user's messages: its text goes into the composer. */
  startEdit(eventId: string): void {
    const message = this.findMessage(eventId);
    const current = this.mode.getSnapshot();
    if (current.kind !== "edit")
      this.textBeforeEdit = { text: this.text.getSnapshot(), mentions: this.mentions };
    const content = message?.content;
    const body = typeof content?.["body"] === "string" ? content["body"] : "";
    const members = this.options.room.getSnapshot().members;
    this.mentions = mentionedUserIds(content).flatMap((id) => {
      const label = members.get(id)?.name ?? id;
      return body.includes(label) ? [{ label, target: id }] : [];
    });
    this.mode.set({ kind: "edit", target: this.targetOf(eventId) });
    this.setText(body, body.length);
    this.caretRequest.set({ at: body.length });
  }

  /**
   * Up-arrow in an empty composer: edits the user's last message, the one
   * just sent included while it is still a local echo. Returns whether it did.
   */
  editLast(): boolean {
    if (this.text.getSnapshot() !== "" || this.mode.getSnapshot().kind === "edit") return false;
    const { client, threadRootId } = this.options;
    const last = lastEditable(this.options.events(), this.pending(), client.userId, threadRootId);
    if (last === undefined) return false;
    this.startEdit(last.id);
    return true;
  }

  /** Escape: closes the list, else leaves reply/edit mode. Returns whether it did something. */
  cancel(): boolean {
    if (this.dismissCompletion()) return true;
    const mode = this.mode.getSnapshot();
    if (mode.kind === "normal") return false;
    if (mode.kind === "edit") this.restoreTextBeforeEdit();
    this.mode.set(NORMAL);
    this.persist();
    return true;
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

  /** The composer lost focus: typing stops. */
  blur(): void {
    this.typing.stop();
  }

  /**
   * Sends what is in the composer: a slash command, an edit or a message.
   * Resolves true when the composer was cleared.
   */
  async send(): Promise<boolean> {
    const text = this.text.getSnapshot();
    const mode = this.mode.getSnapshot();
    if (text.trim() === "") return mode.kind === "edit" ? this.cancel() : false;
    this.completion.set(null);
    const parsed = parseInput(text);
    if (parsed.kind === "error") {
      this.error.set(t("composer", parsed.error.key, parsed.error.vars));
      return false;
    }
    this.busy.set(true);
    try {
      if (parsed.kind === "command") await this.run(parsed.command);
      else await this.sendMessage(parsed.text, "m.text");
    } catch (err) {
      // The SDK's and the server's refusals, in their words (the same sentences as the room actions).
      const message = err instanceof CommandFailure ? err.message : describeFailure(err);
      this.error.set(t("composer", parsed.kind === "command" ? "commandFailed" : "sendFailed", { message }));
      return false;
    } finally {
      this.busy.set(false);
    }
    this.clear();
    if (this.pendingNotice !== undefined) this.notice.set(this.pendingNotice);
    this.pendingNotice = undefined;
    return true;
  }

  /** Files uploaded and sent at once, one by one (no dialog). */
  attach(files: ReadonlyArray<{ name: string; type: string; data: Blob }>): void {
    for (const file of files) void this.uploads.add(file);
  }

  /** Files chosen, dropped or pasted: held for the upload dialog (preview and caption). */
  stage(files: ReadonlyArray<{ name: string; type: string; data: Blob }>): void {
    if (files.length > 0 && this.canUpload) this.staged.set([...this.staged.getSnapshot(), ...files]);
  }

  /** The dialog's Upload: every staged file goes out, the caption on the first (its body). */
  sendStaged(caption: string): void {
    const files = this.staged.getSnapshot();
    this.staged.set([]);
    files.forEach((file, i) => void this.uploads.add(file, i === 0 ? caption : undefined));
  }

  /** The dialog's Cancel: nothing is sent. */
  cancelStaged(): void {
    this.staged.set([]);
  }

  /** The suggestions need the emoji index: loaded on first use. */
  private async loadEmoji(): Promise<void> {
    this.emoji = await loadEmojiIndex();
    if (!this.disposed) this.updateCompletion();
  }

  dispose(): void {
    this.disposed = true;
    this.typing.stop();
  }

  private async run(command: Command): Promise<void> {
    switch (command.kind) {
      case "message":
        if (command.format === "markdown") return this.sendMessage(command.text, command.msgtype);
        return this.sendRendered({ body: command.text }, command.msgtype);
      case "html":
        return this.sendRendered({ body: command.body, formattedBody: command.html }, command.msgtype);
      case "help":
      case "devtools":
        this.panel.set(command.kind);
        return;
      case "action": {
        const outcome = await runAction(command, this.roomId, this.options.client);
        if (outcome.openRoom !== undefined) this.options.onJoined?.(outcome.openRoom);
        this.pendingNotice = outcome.notice;
        return;
      }
    }
  }

  /** Content made by a command (/plain, /html, /spoiler, /rainbow): no markdown, the reply or thread kept. */
  private sendRendered(
    message: { body: string; formattedBody?: string },
    msgtype: "m.text" | "m.emote",
  ): void {
    const mode = this.mode.getSnapshot();
    const replyTo = mode.kind === "reply" ? mode.target.eventId : undefined;
    this.sendContent(messageContent(message, { msgtype, relation: this.relation(replyTo) }));
  }

  private async sendMessage(text: string, msgtype: "m.text" | "m.emote"): Promise<void> {
    const mentionTargets = this.mentions.filter((m) => text.includes(m.label));
    const links = mentionTargets.map((m) => ({ label: m.label, href: `https://matrix.to/#/${m.target}` }));
    const users = mentionTargets.filter((m) => m.target.startsWith("@")).map((m) => m.target);
    const rendered = await renderMarkdown(text, links);
    const mode = this.mode.getSnapshot();
    if (mode.kind === "edit") {
      const targetId = mode.target.eventId;
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
    const replyTo = mode.kind === "reply" ? mode.target : undefined;
    // A reply mentions the replied-to sender (unless that is us).
    if (replyTo !== undefined && replyTo.sender !== this.options.client.userId) users.push(replyTo.sender);
    this.sendContent(
      messageContent(rendered, { msgtype, mentions: users, relation: this.relation(replyTo?.eventId) }),
    );
  }

  private relation(replyTo: string | undefined): MessageRelation {
    const rootId = this.options.threadRootId;
    if (rootId === undefined) return replyTo !== undefined ? { replyTo } : {};
    const events = this.options.events();
    const latest = events[events.length - 1]?.eventId ?? rootId;
    return { ...(replyTo !== undefined ? { replyTo } : {}), thread: { rootId, latestInThread: latest } };
  }

  private relationFields(replyTo: string | undefined): Content {
    const content = messageContent({ body: "" }, { relation: this.relation(replyTo) });
    return content["m.relates_to"] !== undefined ? { "m.relates_to": content["m.relates_to"] } : {};
  }

  private sendContent(content: Content): void {
    this.options.client.sendQueue.send(this.roomId, "m.room.message", content);
  }

  private clear(): void {
    this.mentions = [];
    this.textBeforeEdit = undefined;
    this.mode.set(NORMAL);
    this.setText("", 0);
    this.typing.stop();
  }

  private restoreTextBeforeEdit(): void {
    const saved = this.textBeforeEdit ?? { text: "", mentions: [] };
    this.textBeforeEdit = undefined;
    this.mentions = saved.mentions;
    this.setText(saved.text, saved.text.length);
    this.caretRequest.set({ at: saved.text.length });
  }

  /** This room's (or thread's) local echoes, in send order. */
  private pending(): readonly PendingEvent[] {
    return this.options.client.sendQueue.room(this.roomId).getSnapshot();
  }

  /** A loaded message or a local echo (with queued edits applied to the user's own). */
  private findMessage(eventId: string): OwnMessage | undefined {
    return findMessage(eventId, this.options.events(), this.pending(), this.options.client.userId);
  }

  private targetOf(eventId: string): ModeTarget {
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

  /** Fetches a reply target the timeline has not loaded (a draft restored after a reload). */
  private async fillTarget(eventId: string): Promise<void> {
    const mode = this.mode.getSnapshot();
    if (mode.kind === "normal" || mode.target.sender !== "") return;
    try {
      const event = await getEvent(this.options.client.http, this.roomId, eventId);
      const now = this.mode.getSnapshot();
      if (now.kind === "normal" || now.target.eventId !== eventId) return;
      const body = typeof event.content["body"] === "string" ? event.content["body"] : "";
      const senderName = this.options.room.getSnapshot().members.get(event.sender)?.name ?? event.sender;
      const target = { eventId, sender: event.sender, senderName, preview: body.split("\n")[0] ?? "" };
      this.mode.set({ ...now, target });
    } catch {
      // The banner keeps showing what it knows; the reply still works.
    }
  }

  private updateCompletion(): void {
    const trigger = findTrigger(this.text.getSnapshot(), this.caret);
    if (trigger === null) {
      if (this.completion.getSnapshot() !== null) this.completion.set(null);
      return;
    }
    const items = this.suggestionsFor(trigger);
    if (items.length === 0) {
      this.completion.set(null);
      return;
    }
    const previous = this.completion.getSnapshot();
    const active =
      previous !== null && previous.trigger.start === trigger.start
        ? Math.min(previous.active, items.length - 1)
        : 0;
    this.completion.set({ trigger, items, active });
  }

  private suggestionsFor(trigger: Trigger): Suggestion[] {
    switch (trigger.kind) {
      case "command":
        return suggestCommands(trigger.query).map((s) => ({ ...s, detail: t("composer", s.detail ?? "") }));
      case "user": {
        const members = [...this.options.room.getSnapshot().members.values()].filter(
          (m) => m.membership === "join" || m.membership === "invite",
        );
        return suggestUsers(members, trigger.query, this.options.client.userId);
      }
      case "room":
        return suggestRooms(
          roomsWithAliases(this.options.client.rooms.all.getSnapshot().values()),
          trigger.query,
        );
      case "emoji":
        if (this.emoji === undefined) {
          void this.loadEmoji();
          return [];
        }
        return suggestEmoji(this.emoji, trigger.query);
    }
  }

  private restoreDraft(): void {
    const { storage } = this.options;
    const draft = storage ? loadDraft(storage, this.key) : null;
    if (draft === null) return;
    this.mentions = [...draft.mentions];
    this.text.set(draft.text);
    this.caret = draft.text.length;
    if (draft.mode.kind !== "normal") {
      this.mode.set({ kind: draft.mode.kind, target: this.targetOf(draft.mode.eventId) });
      void this.fillTarget(draft.mode.eventId);
    }
  }

  private persist(): void {
    const { storage } = this.options;
    if (storage === undefined) return;
    const mode = this.mode.getSnapshot();
    const draftMode: DraftMode =
      mode.kind === "normal" ? { kind: "normal" } : { kind: mode.kind, eventId: mode.target.eventId };
    saveDraft(storage, this.key, { text: this.text.getSnapshot(), mentions: this.mentions, mode: draftMode });
  }
}
