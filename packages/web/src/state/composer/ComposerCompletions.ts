/**
 * The composer's autocomplete list: which trigger the caret is in, the
 * suggestions for it (the room's members, the rooms with an alias, emoji
 * shortcodes once the emoji index has loaded, slash commands) and the
 * active one. ComposerViewModel owns it and inserts what is picked.
 */
import { ObservableValue } from "../observables";
import type { Client, Room } from "../../sdk";
import { t } from "../../i18n/i18n";
import {
  findTrigger,
  roomsWithAliases,
  suggestCommands,
  suggestEmoji,
  suggestRooms,
  suggestUsers,
} from "./completions";
import type { Suggestion, Trigger } from "./completions";
import { loadEmojiIndex } from "./emoji";
import type { EmojiIndex } from "./emoji";

/** The open autocomplete list. */
export interface Completion {
  readonly trigger: Trigger;
  readonly items: readonly Suggestion[];
  readonly active: number;
}

/** What the suggestions are drawn from. */
export interface CompletionSource {
  readonly client: Pick<Client, "userId" | "rooms">;
  readonly room: Room;
}

/** The list's state; see the file overview. */
export class ComposerCompletions {
  readonly completion = new ObservableValue<Completion | null>(null);
  private emoji: EmojiIndex | undefined;
  private disposed = false;

  constructor(
    private readonly source: CompletionSource,
    /** The composer's text and caret now. */
    private readonly input: () => { text: string; caret: number },
  ) {}

  /** Recomputes the list for the current text and caret. */
  update(): void {
    const { text, caret } = this.input();
    const trigger = findTrigger(text, caret);
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

  /** Moves the active suggestion (wrapping). */
  move(delta: number): void {
    const c = this.completion.getSnapshot();
    if (c === null || c.items.length === 0) return;
    const n = c.items.length;
    this.completion.set({ ...c, active: (((c.active + delta) % n) + n) % n });
  }

  /** The active (or given) suggestion and the range it replaces; null when none. */
  picked(index?: number): { trigger: Trigger; item: Suggestion } | null {
    const c = this.completion.getSnapshot();
    const item = c?.items[index ?? c.active];
    return c === null || item === undefined ? null : { trigger: c.trigger, item };
  }

  /** Closes the list. Returns whether one was open. */
  dismiss(): boolean {
    if (this.completion.getSnapshot() === null) return false;
    this.completion.set(null);
    return true;
  }

  dispose(): void {
    this.disposed = true;
  }

  /** The suggestions need the emoji index: loaded on first use. */
  private async loadEmoji(): Promise<void> {
    this.emoji = await loadEmojiIndex();
    if (!this.disposed) this.update();
  }

  private suggestionsFor(trigger: Trigger): Suggestion[] {
    switch (trigger.kind) {
      case "command":
        return suggestCommands(trigger.query).map((s) => ({ ...s, detail: t("composer", s.detail ?? "") }));
      case "user": {
        const members = [...this.source.room.getSnapshot().members.values()].filter(
          (m) => m.membership === "join" || m.membership === "invite",
        );
        return suggestUsers(members, trigger.query, this.source.client.userId);
      }
      case "room":
        return suggestRooms(
          roomsWithAliases(this.source.client.rooms.all.getSnapshot().values()),
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
}
