/**
 * The composer of a room (or of one thread): the text and its caret, the
 * mentions in it (pills, deleted as one unit; composer/pills.ts), the
 * autocomplete (users, rooms, emoji shortcodes, slash commands; composer/
 * ComposerCompletions.ts), reply and
 * edit modes, slash commands, markdown rendering on send, typing notices,
 * attachments (ComposerUploads) and the draft kept per room across reloads.
 * Content is built by composer/ComposerSender.ts.
 * Everything goes out through the SDK client's send queue (local echo) and
 * services; components only call its methods and read its observables.
 */
import { ObservableValue } from "../sdk";
import type { Client, KeyValueStorage, ReadonlyObservable, Room, TimelineItem } from "../sdk";
import { t } from "../i18n/i18n";
import { CommandFailure, parseInput } from "./composer/commands";
import type { Command } from "./composer/commands";
import type { CommandClient } from "./composer/runCommand";
import { describeFailure } from "./rooms/failure";
import { ComposerCompletions } from "./composer/ComposerCompletions";
import type { Completion } from "./composer/ComposerCompletions";
import { deletePillAt, pillsOf } from "./composer/pills";
import type { Pill } from "./composer/pills";
import { TypingNotifier } from "./composer/typing";
import { mentionedUserIds } from "./composer/content";
import { lastEditable } from "./composer/editable";
import { ComposerSender } from "./composer/ComposerSender";
import type { DevtoolsView, ModeTarget } from "./composer/ComposerSender";
import { draftKey, loadDraft, saveDraft } from "./composer/drafts";
import type { DraftMode, TrackedMention } from "./composer/drafts";
import { rememberEmoji } from "./composer/emoji";
import { preloadMarkdown } from "./composer/markdown";
import { ComposerUploads } from "./ComposerUploads";
import type { MediaProbe } from "./composer/attachments";

/** The parts of the SDK client the composer uses. */
export type ComposerClient = Pick<Client, "typing"> & CommandClient;

/** The composer's mode. */
export type ComposerMode =
  | { readonly kind: "normal" }
  | { readonly kind: "reply"; readonly target: ModeTarget }
  | { readonly kind: "edit"; readonly target: ModeTarget };

export type { Completion } from "./composer/ComposerCompletions";
export type { DevtoolsView, ModeTarget } from "./composer/ComposerSender";
export type { Pill } from "./composer/pills";

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
  /** Stop typing after this long without a keystroke (ms); defaults to 10000. */
  typingIdleMs?: number;
  /** False where typing notices cannot be sent (embedded); defaults to true. */
  sendsTyping?: boolean;
  /** False where files cannot be uploaded (a host without media); defaults to true. */
  canUpload?: boolean;
}

const NORMAL: ComposerMode = { kind: "normal" };

export class ComposerViewModel {
  readonly text = new ObservableValue("");
  readonly mode = new ObservableValue<ComposerMode>(NORMAL);
  /** The open autocomplete list (users, rooms, emoji, commands). */
  readonly completion: ReadonlyObservable<Completion | null>;
  /** The mentions in the text, drawn as pills behind it and deleted as one unit. */
  readonly pills = new ObservableValue<readonly Pill[]>([]);
  /** The last command or send error, cleared by the next edit. */
  readonly error = new ObservableValue<string | null>(null);
  /** Where the caret should go after a programmatic change (the component applies it). */
  readonly caretRequest = new ObservableValue<{ at: number } | null>(null);
  readonly busy = new ObservableValue(false);
  /** A command's answer to show (/whois, /ignore ...), cleared by the next edit. */
  readonly notice = new ObservableValue<string | null>(null);
  /** The panel a command opened: the /help list or /devtools. */
  readonly panel = new ObservableValue<"help" | "devtools" | null>(null);
  /** Uploads in flight and files staged for the upload dialog. */
  readonly uploads: ComposerUploads;
  private mentions: TrackedMention[] = [];
  /** A command's notice, shown once the composer has been cleared. */
  private pendingNotice: string | undefined;
  private caret = 0;
  private readonly completions: ComposerCompletions;
  private readonly sender: ComposerSender;
  private textBeforeEdit: { text: string; mentions: TrackedMention[] } | undefined;
  private readonly typing: TypingNotifier;
  private readonly key: string;

  constructor(private readonly options: ComposerOptions) {
    const { client, room, threadRootId } = options;
    this.key = draftKey(client.userId, room.roomId, threadRootId);
    this.completions = new ComposerCompletions({ client, room }, () => ({
      text: this.text.getSnapshot(),
      caret: this.caret,
    }));
    this.completion = this.completions.completion;
    this.sender = new ComposerSender({ client, room, threadRootId, events: options.events });
    const noTyping = (): Promise<void> => Promise.resolve();
    this.typing = new TypingNotifier(
      options.sendsTyping === false ? noTyping : (on) => client.typing.setTyping(room.roomId, on),
      options.typingIdleMs,
    );
    this.uploads = new ComposerUploads({
      http: client.http,
      isEncrypted: () => room.getSnapshot().isEncrypted,
      send: (content) => this.sender.sendContent({ ...content, ...this.sender.relationFields(undefined) }),
      ...(options.probe ? { probe: options.probe } : {}),
      ...(options.canUpload === false ? { enabled: false } : {}),
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
    this.updatePills();
    this.completions.update();
    this.typing.update(text);
    this.persist();
  }

  /** The caret moved without a text change. */
  setCaret(caret: number): void {
    this.caret = caret;
    this.completions.update();
  }

  /** Moves the active suggestion (wrapping). */
  moveCompletion(delta: number): void {
    this.completions.move(delta);
  }

  /**
   * Backspace (or Delete) with the caret at a pill's edge and nothing
   * selected: the whole mention goes. Returns whether it did (the key's
   * default must then be prevented).
   */
  deletePill(key: "Backspace" | "Delete"): boolean {
    const next = deletePillAt(this.text.getSnapshot(), this.pills.getSnapshot(), this.caret, key);
    if (next === null) return false;
    this.mentions = this.mentions.filter((m) => m.label !== next.removed.label);
    this.setText(next.text, next.caret);
    this.caretRequest.set({ at: next.caret });
    return true;
  }

  /** Inserts the active (or given) suggestion; returns whether one was inserted. */
  acceptCompletion(index?: number): boolean {
    const picked = this.completions.picked(index);
    if (picked === null) return false;
    const { item } = picked;
    const text = this.text.getSnapshot();
    const { start, end } = picked.trigger;
    const after = text.slice(end);
    const insert =
      item.kind === "command" ? item.insert : `${item.insert}${after.startsWith(" ") ? "" : " "}`;
    const next = text.slice(0, start) + insert + after;
    if (item.mention !== undefined && !this.mentions.some((m) => m.label === item.mention?.label))
      this.mentions.push(item.mention);
    if (item.kind === "emoji") rememberEmoji(this.options.storage, item.insert);
    this.completions.dismiss();
    const caret = start + insert.length;
    this.setText(next, caret);
    this.completions.dismiss();
    this.caretRequest.set({ at: caret });
    return true;
  }

  /** Closes the list (Escape). Returns whether one was open. */
  dismissCompletion(): boolean {
    return this.completions.dismiss();
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
    this.mode.set({ kind: "reply", target: this.sender.targetOf(eventId) });
    this.persist();
    void this.fillTarget(eventId);
  }

  /** Starts editing one of the user's messages: its text goes into the composer. */
  startEdit(eventId: string): void {
    const message = this.sender.findMessage(eventId);
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
    this.mode.set({ kind: "edit", target: this.sender.targetOf(eventId) });
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
    const last = lastEditable(this.options.events(), this.sender.pending(), client.userId, threadRootId);
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
    return this.sender.devtoolsView();
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
    this.completions.dismiss();
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

  dispose(): void {
    this.completions.dispose();
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
        // The action commands (and the room actions they use) load on the first one: most rooms never run one.
        const { runAction } = await import("./composer/runCommand");
        const outcome = await runAction(command, this.roomId, this.options.client);
        if (outcome.openRoom !== undefined) this.options.onJoined?.(outcome.openRoom);
        this.pendingNotice = outcome.notice;
        return;
      }
    }
  }

  private replyTarget(): ModeTarget | undefined {
    const mode = this.mode.getSnapshot();
    return mode.kind === "reply" ? mode.target : undefined;
  }

  private sendRendered(
    message: { body: string; formattedBody?: string },
    msgtype: "m.text" | "m.emote",
  ): void {
    this.sender.sendRendered(message, msgtype, this.replyTarget()?.eventId);
  }

  private sendMessage(text: string, msgtype: "m.text" | "m.emote"): Promise<void> {
    const mode = this.mode.getSnapshot();
    const reply = this.replyTarget();
    return this.sender.sendMessage(text, msgtype, this.mentions, {
      ...(reply !== undefined ? { reply } : {}),
      ...(mode.kind === "edit" ? { edit: mode.target } : {}),
    });
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

  /** Fetches a reply target the timeline has not loaded (a draft restored after a reload). */
  private async fillTarget(eventId: string): Promise<void> {
    const mode = this.mode.getSnapshot();
    if (mode.kind === "normal" || mode.target.sender !== "") return;
    const target = await this.sender.fetchTarget(eventId);
    const now = this.mode.getSnapshot();
    if (target === null || now.kind === "normal" || now.target.eventId !== eventId) return;
    this.mode.set({ ...now, target });
  }

  private updatePills(): void {
    const next = pillsOf(this.text.getSnapshot(), this.mentions);
    const now = this.pills.getSnapshot();
    const same =
      next.length === now.length &&
      next.every((p, i) => p.start === now[i]?.start && p.end === now[i]?.end && p.target === now[i]?.target);
    if (!same) this.pills.set(next);
  }

  private restoreDraft(): void {
    const { storage } = this.options;
    const draft = storage ? loadDraft(storage, this.key) : null;
    if (draft === null) return;
    this.mentions = [...draft.mentions];
    this.text.set(draft.text);
    this.updatePills();
    this.caret = draft.text.length;
    if (draft.mode.kind !== "normal") {
      this.mode.set({ kind: draft.mode.kind, target: this.sender.targetOf(draft.mode.eventId) });
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
