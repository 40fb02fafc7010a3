/**
 * The open room's timeline: the SDK's TimelineWindow (live end, paging both
 * ways, jumping to an event through /context), the send queue's local
 * echoes, receipts, typing and the fully-read marker, turned into rows
 * (state/timeline/rows.ts) for the virtualised list. Rows are rebuilt once
 * per task however many sources changed, and once per paging step (not per
 * page fetched). Actions on messages (reactions,
 * deletion, retry/cancel of a failed send, read receipts) live in
 * TimelineActions, shared through `actions`.
 */
import { t } from "../i18n/i18n";
import { evaluatePushRules } from "../sdk";
import type {
  Client,
  ReadonlyObservable,
  ReadonlyObservableList,
  Room,
  RoomSnapshot,
  TimelineItem,
} from "../sdk";
import type { MediaLoader } from "./MediaLoader";
import { ObservableValue } from "./observables";
import { Scope } from "./Scope";
import { RowBuilder } from "./timeline/rows";
import type { TimelineRow } from "./timeline/rows";
import { typingSummary } from "./timeline/summaries";
import { TimelineActions } from "./timeline/TimelineActions";
import { ownDeviceVerification } from "./timeline/ownDevice";

export type { TimelineRow } from "./timeline/rows";
export type { TimelineItem };
/** One item of the timeline (event, with edits, reactions and redaction applied). */
export type TimelineEntry = TimelineItem;

/** Events added per paging step (a few requests): a fast scroll to the top keeps up. */
export const TIMELINE_PAGE_STEP = 300;

/** Events kept loaded before the far end is dropped: enough for very long reading sessions. */
export const TIMELINE_EVENTS_KEPT = 100_000;

export interface TimelineViewModelOptions {
  client: Client;
  room: Room;
  /** False where receipts cannot be sent (embedded): reading moves nothing. */
  sendsReceipts?: boolean;
  /** The page's media loader; absent in the embedded page (the host owns media). */
  media?: MediaLoader | undefined;
  /** Open at this event instead of the live end. */
  eventId?: string;
  /** Events kept loaded (defaults to TIMELINE_EVENTS_KEPT). */
  limit?: number;
}

/** A request for the list to scroll: to an event's row, or to the bottom. */
export interface ScrollRequest {
  readonly eventId: string | null;
  /** Distinguishes two requests for the same place. */
  readonly seq: number;
}

export class TimelineViewModel {
  readonly loading = new ObservableValue(true);
  readonly paginating = new ObservableValue(false);
  readonly error = new ObservableValue<string | null>(null);
  readonly rows = new ObservableValue<readonly TimelineRow[]>([]);
  /** "alice is typing…", or null. */
  readonly typing = new ObservableValue<string | null>(null);
  /** Whether the start of the room is loaded (nothing older to fetch). */
  readonly atStart = new ObservableValue(false);
  /** Whether the window reaches the live end (otherwise a "Jump to latest" shows). */
  readonly atLiveEnd = new ObservableValue(true);
  /** The event a jump landed on, highlighted for a moment. */
  readonly highlighted = new ObservableValue<string | null>(null);
  readonly scrollRequest = new ObservableValue<ScrollRequest | null>(null);
  /** The fully-read event when the room was opened (the "new messages" line). */
  readonly fullyRead: string | null;
  readonly actions: TimelineActions;
  readonly userId: string;
  readonly media: MediaLoader | undefined;
  /** Whether this device is verified (undefined until known): the UTD "own device" category. */
  readonly ownDeviceVerified: ReadonlyObservable<boolean | undefined>;
  private readonly window: ReturnType<Room["openTimeline"]>;
  private readonly builder = new RowBuilder();
  private readonly highlights = new WeakMap<TimelineItem, boolean>();
  private readonly scope = new Scope();
  private itemIndex: { of: readonly TimelineItem[]; byId: Map<string, TimelineItem> } | null = null;
  private shownIndex: { of: readonly TimelineRow[]; ids: Set<string> } | null = null;
  private rebuildQueued = false;
  private seq = 0;
  private disposed = false;

  constructor(private readonly options: TimelineViewModelOptions) {
    const { client, room } = options;
    this.userId = client.userId;
    this.media = options.media;
    this.ownDeviceVerified = ownDeviceVerification(client);
    const marker = room.getSnapshot().accountData.get("m.fully_read")?.content["event_id"];
    this.fullyRead = typeof marker === "string" ? marker : null;
    this.window = room.openTimeline({ limit: options.limit ?? TIMELINE_EVENTS_KEPT });
    this.scope.add(() => this.window.close());
    this.actions = new TimelineActions({
      client,
      room,
      find: (id) => this.find(id),
      items: () => this.window.items.getSnapshot(),
    });
    this.scope.add(() => this.actions.dispose());
    const rebuild = (): void => this.queueRebuild();
    this.scope.subscribe(this.window.items, rebuild);
    this.scope.subscribe(room, rebuild);
    this.scope.subscribe(client.sendQueue.room(room.roomId), rebuild);
    this.rebuild();
    void this.load(options.eventId);
  }

  get roomId(): string {
    return this.options.room.roomId;
  }

  /** The room's current snapshot (name, topic, members, encryption). */
  get snapshot(): ReadonlyObservable<RoomSnapshot> {
    return this.options.room;
  }

  /** The SDK's items, oldest first. */
  get items(): ReadonlyObservableList<TimelineItem> {
    return this.window.items;
  }

  /** A member's display name, disambiguated by the SDK; the user id when not a member. */
  nameOf = (userId: string): string => this.options.room.getSnapshot().members.get(userId)?.name ?? userId;

  /** A member's avatar (mxc), if any. */
  avatarOf = (userId: string): string | undefined =>
    this.options.room.getSnapshot().members.get(userId)?.avatarUrl;

  /** A loaded item by event id (an index built once per change of the items, not a walk of 100,000). */
  find(eventId: string): TimelineItem | undefined {
    const items = this.window.items.getSnapshot();
    if (this.itemIndex?.of !== items)
      this.itemIndex = { of: items, byId: new Map(items.map((i) => [i.eventId, i])) };
    return this.itemIndex.byId.get(eventId);
  }

  /** Loads older events when there are any; ignored while a load runs. */
  async loadOlder(): Promise<void> {
    await this.page("b");
  }

  /** Loads newer events after a jump into history. */
  async loadNewer(): Promise<void> {
    await this.page("f");
  }

  /**
   * Shows an event: scrolls to it when loaded, otherwise reloads the window
   * around it (via /context). Highlights it either way.
   */
  async jumpTo(eventId: string): Promise<void> {
    if (this.find(eventId) === undefined) {
      this.loading.set(true);
      try {
        await this.window.load(eventId);
      } catch (err) {
        this.error.set(t("timeline", "jump_failed", { message: messageOf(err) }));
        return;
      } finally {
        this.loading.set(false);
        this.rebuild();
      }
    }
    this.highlighted.set(eventId);
    this.scrollRequest.set({ eventId, seq: ++this.seq });
  }

  /** The "jump to first unread" pill. */
  async jumpToUnread(): Promise<void> {
    if (this.fullyRead !== null) await this.jumpTo(this.fullyRead);
  }

  /** Back to the newest messages (reloads the live end after a jump). */
  async jumpToLatest(): Promise<void> {
    if (!this.window.atLiveEnd) await this.load();
    this.highlighted.set(null);
    this.scrollRequest.set({ eventId: null, seq: ++this.seq });
  }

  /** Whether the unread line's event is loaded and shown (the pill hides then). */
  isShown(eventId: string): boolean {
    const rows = this.rows.getSnapshot();
    if (this.shownIndex?.of !== rows) this.shownIndex = { of: rows, ids: shownIds(rows) };
    return this.shownIndex.ids.has(eventId);
  }

  /** The reader reached this event (the newest fully visible one): moves receipts forward. */
  markVisible(eventId: string): void {
    if (this.options.sendsReceipts === false) return;
    this.actions.markRead(eventId, this.window.atLiveEnd);
  }

  dispose(): void {
    this.disposed = true;
    this.scope.end();
  }

  private async load(eventId?: string): Promise<void> {
    this.loading.set(true);
    let loaded = false;
    try {
      await this.window.load(eventId);
      loaded = true;
    } catch (err) {
      if (!this.disposed) this.error.set(t("timeline", "error_load", { message: messageOf(err) }));
    } finally {
      this.loading.set(false);
      this.rebuild();
    }
    if (loaded && eventId !== undefined) {
      this.highlighted.set(eventId);
      this.scrollRequest.set({ eventId, seq: ++this.seq });
    }
  }

  private async page(dir: "b" | "f"): Promise<void> {
    if (this.disposed || this.paginating.getSnapshot() || !this.window.canPaginate(dir)) return;
    this.paginating.set(true);
    try {
      await this.window.paginate(dir, TIMELINE_PAGE_STEP);
    } catch (err) {
      this.error.set(t("timeline", "error_load", { message: messageOf(err) }));
    } finally {
      this.paginating.set(false);
      this.rebuild();
    }
  }

  private queueRebuild(): void {
    // A paging step lands page by page: the rows are rebuilt once when it ends.
    if (this.rebuildQueued || this.paginating.getSnapshot()) return;
    this.rebuildQueued = true;
    queueMicrotask(() => {
      this.rebuildQueued = false;
      if (!this.disposed) this.rebuild();
    });
  }

  private rebuild(): void {
    const { client, room } = this.options;
    const snapshot = room.getSnapshot();
    const readers = readersByEvent(snapshot, this.userId);
    const rules = client.rooms.accountData("m.push_rules")?.content;
    const me = snapshot.members.get(this.userId);
    const ctx = {
      userId: this.userId,
      memberCount: snapshot.state.memberCounts().joined,
      powerLevels: snapshot.state.powerLevels,
      roomId: room.roomId,
      ...(me?.rawDisplayName !== undefined ? { displayName: me.rawDisplayName } : {}),
    };
    const isHighlight = (item: TimelineItem): boolean => {
      let h = this.highlights.get(item);
      if (h === undefined) {
        h = !item.redacted && evaluatePushRules(item.event, rules, ctx).highlight;
        this.highlights.set(item, h);
      }
      return h;
    };
    this.rows.set(
      this.builder.build({
        items: this.window.items.getSnapshot(),
        pending: client.sendQueue.room(room.roomId).getSnapshot(),
        userId: this.userId,
        nameOf: this.nameOf,
        readersOf: (id) => readers.get(id) ?? NONE,
        isHighlight,
        fullyRead: this.fullyRead,
      }),
    );
    this.typing.set(typingSummary(snapshot.typing.filter((u) => u !== this.userId).map(this.nameOf)));
    this.atStart.set(!this.window.canPaginate("b") && !this.loading.getSnapshot());
    this.atLiveEnd.set(this.window.atLiveEnd);
  }
}

const NONE: readonly string[] = Object.freeze([]);

/** The events the rows show (messages, and every event of a state run). */
function shownIds(rows: readonly TimelineRow[]): Set<string> {
  const ids = new Set<string>();
  for (const r of rows) {
    if (r.kind === "message") ids.add(r.item.eventId);
    else if (r.kind === "state") for (const i of r.items) ids.add(i.eventId);
  }
  return ids;
}

/** Each user's newest public main-timeline receipt, grouped by event (the user's own left out). */
function readersByEvent(snapshot: RoomSnapshot, userId: string): Map<string, string[]> {
  const newest = new Map<string, { eventId: string; ts: number }>();
  for (const r of snapshot.receipts.all()) {
    if (r.type !== "m.read" || r.userId === userId) continue;
    if (r.threadId !== undefined && r.threadId !== "main") continue;
    const old = newest.get(r.userId);
    if (old === undefined || r.ts >= old.ts) newest.set(r.userId, { eventId: r.eventId, ts: r.ts });
  }
  const out = new Map<string, string[]>();
  for (const [user, { eventId }] of newest) {
    const list = out.get(eventId);
    if (list === undefined) out.set(eventId, [user]);
    else list.push(user);
  }
  return out;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
