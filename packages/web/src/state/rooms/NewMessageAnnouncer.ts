/**
 * What the open room's polite live region says: "Bob: hello" for a message
 * that arrives at the live end, never for one's own messages, the history
 * loaded when the room opens, back-pagination or a jump into the past.
 * Announcements are throttled: within the quiet interval new messages are
 * gathered and said as the first one plus "and 2 more new messages".
 * Made once per room view model (`announcerOf`) and ended with its scope.
 */
import { t } from "../../i18n/i18n";
import type { ReadonlyObservable, TimelineItem } from "../../sdk";
import { ObservableValue } from "../observables";
import type { Scope } from "../Scope";
import type { Subscribable } from "../useObservable";

/** What the announcer reads of the room's timeline. */
export interface AnnouncerSource {
  /** The loaded events, oldest first (the SDK's list; any subscribable snapshot will do). */
  readonly items: Subscribable<readonly TimelineItem[]>;
  readonly loading: ReadonlyObservable<boolean>;
  readonly atLiveEnd: ReadonlyObservable<boolean>;
  readonly userId: string;
  nameOf(userId: string): string;
}

/** The shortest time between two announcements (ms). */
export const ANNOUNCE_INTERVAL_MS = 1500;

const SPOKEN_TYPES = new Set(["m.room.message", "m.sticker"]);

function textOf(item: TimelineItem): string {
  const c = item.content;
  const body = typeof c["body"] === "string" ? c["body"] : "";
  const msgtype = c["msgtype"];
  if (msgtype === "m.image" || msgtype === "m.file" || msgtype === "m.video" || msgtype === "m.audio")
    return t("navigation", "live_attachment");
  return body.length > 200 ? `${body.slice(0, 200)}…` : body;
}

export class NewMessageAnnouncer {
  /** The live region's text (the newest announcement). */
  readonly text = new ObservableValue("");
  private newest: string | undefined;
  private pending: TimelineItem[] = [];
  private lastAt = -Infinity;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly source: AnnouncerSource,
    scope: Scope,
    private readonly now: () => number = () => Date.now(),
  ) {
    this.newest = this.newestId();
    scope.subscribe(source.items, () => this.onItems());
    scope.add(() => clearTimeout(this.timer));
  }

  private newestId(): string | undefined {
    const items = this.source.items.getSnapshot();
    return items[items.length - 1]?.eventId;
  }

  private onItems(): void {
    const items = this.source.items.getSnapshot();
    const before = this.newest;
    this.newest = items[items.length - 1]?.eventId;
    // History (the first load, paging, a jump) is not news.
    if (this.source.loading.getSnapshot() || !this.source.atLiveEnd.getSnapshot() || before === undefined)
      return;
    const at = items.findIndex((i) => i.eventId === before);
    if (at < 0) return;
    const fresh = items
      .slice(at + 1)
      .filter((i) => i.sender !== this.source.userId && SPOKEN_TYPES.has(i.type) && !i.redacted);
    if (fresh.length === 0) return;
    this.pending.push(...fresh);
    this.schedule();
  }

  private schedule(): void {
    if (this.timer !== undefined) return;
    const wait = this.lastAt + ANNOUNCE_INTERVAL_MS - this.now();
    if (wait <= 0) this.flush();
    else this.timer = setTimeout(() => this.flush(), wait);
  }

  private flush(): void {
    this.timer = undefined;
    const [first, ...rest] = this.pending;
    this.pending = [];
    if (first === undefined) return;
    this.lastAt = this.now();
    const line = t("navigation", "live_message", {
      sender: this.source.nameOf(first.sender),
      text: textOf(first),
    });
    const said = rest.length > 0 ? `${line} ${t("navigation", "live_more", { count: rest.length })}` : line;
    if (said !== this.text.getSnapshot()) return this.text.set(said);
    // The same words again: empty the region first, or screen readers hear no change.
    this.text.set("");
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.text.set(said);
    }, 50);
  }
}

const announcers = new WeakMap<object, NewMessageAnnouncer>();

/** The announcer of an open room, made on first use and ended with the room's scope. */
export function announcerOf(room: {
  readonly timeline: AnnouncerSource;
  readonly scope: Scope;
}): NewMessageAnnouncer {
  let found = announcers.get(room);
  if (found === undefined) {
    found = new NewMessageAnnouncer(room.timeline, room.scope.child());
    announcers.set(room, found);
  }
  return found;
}
