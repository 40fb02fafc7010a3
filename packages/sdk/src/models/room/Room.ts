/**
 * Room: one room as sync describes it, published as an immutable
 * RoomSnapshot through subscribe/getSnapshot (state, members, name, avatar,
 * DM flag, summary, unread counts, tags, account data, receipts, typing).
 * It keeps only the last few sync events (the seed of a timeline); the full
 * TimelineSet is materialised while someone holds it (ref-counted) and
 * dropped when the last holder lets go, so unseen rooms cost little memory.
 * A room may first be seeded from the room list summary (`seedFromSummary`): its first
 * real update then starts over from an empty state.
 */
import type { BasicEvent, ClientEventWithoutRoomId, StrippedStateEvent } from "../../api/types/events";
import type { HttpApi } from "../../http/types";
import type { Scheduler } from "../../util/scheduler";
import type {
  ParsedInvitedRoom,
  ParsedJoinedRoom,
  ParsedKnockedRoom,
  ParsedLeftRoom,
  ParsedSummary,
  UnreadCounts,
} from "../../sync/validate/types";
import { ObservableValue } from "../../util/observable";
import type { ReadonlyObservable } from "../../util/observable";
import { own } from "../json";
import { isRedacted, redactedEventId, redactEvent } from "../redaction";
import { relationOf } from "../relations";
import { isPreviewEvent, newestPreviewEvent } from "./preview-event";
import { roomAvatarUrl, roomName } from "../room-name";
import type { RoomName } from "../room-name";
import type { UnreadBreakdown } from "../push-rules/unread";
import { RoomThreads } from "../threads/RoomThreads";
import { decryptPage } from "../timeline/decryptor";
import type { EventDecryptor } from "../timeline/decryptor";
import type { RoomListSummaryEntry } from "../room-list/summary-entry";
import { TimelineSet } from "../timeline/TimelineSet";
import type { TimelineSeed } from "../timeline/TimelineSet";
import { TimelineWindow } from "../timeline/TimelineWindow";
import type { TimelineWindowOptions } from "../timeline/TimelineWindow";
import { parseReceiptEvent, RoomReceipts } from "./receipts";
import type { Receipt } from "./receipts";
import { RoomState } from "./RoomState";
import type { RoomMember } from "./RoomState";
import { replaceHeldEvent, summaryJson, tagsOf } from "./snapshot-parts";
import type { RoomPredecessor, RoomTombstone } from "./upgrades";

export { tagsOf } from "./snapshot-parts";

/** The membership category of a room in sync. */
export type RoomCategory = "join" | "invite" | "leave" | "knock";

/** How many recent sync events a room keeps while no timeline is open. */
export const RECENT_EVENTS_KEPT = 20;

const NO_UNREAD: UnreadCounts = Object.freeze({ highlightCount: 0, notificationCount: 0 });

/** A room at one point in time: immutable. */
export interface RoomSnapshot {
  readonly roomId: string;
  readonly category: RoomCategory;
  readonly state: RoomState;
  readonly members: ReadonlyMap<string, RoomMember>;
  readonly name: RoomName;
  readonly avatarUrl?: string;
  /** The other user of a DM (from m.direct), when the room is one. */
  readonly directUserId?: string;
  readonly isDirect: boolean;
  readonly isSpace: boolean;
  /** The room this one was upgraded from (m.room.create `predecessor`, or MSC3946). */
  readonly predecessor?: RoomPredecessor;
  /** The room this one was upgraded to (m.room.tombstone). */
  readonly tombstone?: RoomTombstone;
  readonly isEncrypted: boolean;
  readonly summary: ParsedSummary;
  readonly unread: UnreadCounts;
  readonly threadUnread: ReadonlyMap<string, UnreadCounts>;
  /** Tags from m.tag, with their order when given. */
  readonly tags: ReadonlyMap<string, { readonly order?: number }>;
  readonly accountData: ReadonlyMap<string, BasicEvent>;
  readonly receipts: RoomReceipts;
  readonly typing: readonly string[];
  /** The newest event seen (the room list's recent activity). */
  readonly latestEvent?: ClientEventWithoutRoomId;
  /**
   * The newest event worth the room list's preview line: as latestEvent,
   * without reactions, redactions and other non-message events
   * (preview-event.ts).
   */
  readonly previewEvent?: ClientEventWithoutRoomId;
  /** The newest event's timestamp, 0 when none. */
  readonly lastActivityTs: number;
  /** Who invited the user (invites only). */
  readonly inviter?: string;
}

export interface RoomContext {
  userId: string;
  http: HttpApi;
  scheduler: Scheduler;
  /** The DM partner of a room, from the account's m.direct. */
  directUserOf: (roomId: string) => string | undefined;
  recentEventsKept?: number;
  /** Decrypts events fetched outside sync (pagination, /context, threads). */
  decryptor?: EventDecryptor;
  /** Loads the room's full state first when it is still seeded (Rooms' chunked load). */
  ensureLoaded?: (roomId: string) => void;
  /** Where refused server data is reported (console by default). */
  logger?: { warn(message: string, ...data: unknown[]): void };
}

interface Segment {
  events: ClientEventWithoutRoomId[];
  prevBatch: string | null;
}

export class Room implements ReadonlyObservable<RoomSnapshot> {
  readonly threads: RoomThreads;
  private readonly value: ObservableValue<RoomSnapshot>;
  private state = RoomState.empty();
  private segments: Segment[] = [];
  private timelineSet: TimelineSet | undefined;
  private holders = 0;
  private category: RoomCategory;
  private summary: ParsedSummary = {};
  private unread: UnreadCounts = NO_UNREAD;
  private threadUnread: ReadonlyMap<string, UnreadCounts> = new Map();
  private accountData: ReadonlyMap<string, BasicEvent> = new Map();
  private receipts = new RoomReceipts();
  private typing: readonly string[] = [];
  private latestEvent: ClientEventWithoutRoomId | undefined;
  private previewEvent: ClientEventWithoutRoomId | undefined;
  /** Kept events redacted here that were relations (event id -> rel_type), for timelines built later. */
  private readonly redactedRelTypes = new Map<string, string>();
  /** The summary's name while the room is seeded (its state holds only a few members). */
  private seededName: RoomName | undefined;

  constructor(
    readonly roomId: string,
    category: RoomCategory,
    private readonly ctx: RoomContext,
  ) {
    this.category = category;
    this.threads = new RoomThreads(ctx.userId);
    this.value = new ObservableValue(this.build());
  }

  getSnapshot = (): RoomSnapshot => this.value.getSnapshot();

  /** State the room refuses (a second m.room.create) is logged, never applied. */
  private readonly onIgnoredState = (message: string): void =>
    (this.ctx.logger ?? console).warn(`${this.roomId}: ${message}`);

  subscribe = (listener: (value: RoomSnapshot) => void): (() => void) => this.value.subscribe(listener);

  /** The recent sync events kept (oldest first). */
  get recentEvents(): ClientEventWithoutRoomId[] {
    return this.segments.flatMap((s) => s.events);
  }

  /** Whether a timeline is materialised now (someone holds it). */
  get timelineMaterialised(): boolean {
    return this.timelineSet !== undefined;
  }

  /**
   * Holds the room's timeline; the caller must call `release` once. The set
   * starts from the recent sync events and their pagination token.
   */
  acquireTimeline(): { set: TimelineSet; release: () => void } {
    this.ctx.ensureLoaded?.(this.roomId);
    this.timelineSet ??= new TimelineSet(
      {
        roomId: this.roomId,
        http: this.ctx.http,
        scheduler: this.ctx.scheduler,
        rules: () => this.state.rules,
        onMembers: (events) => this.addLazyMembers(events),
        // Roots met by scrolling back or jumping carry their bundled thread summaries.
        onPage: (events) => this.threads.addEvents(events, (id) => this.findEvent(id)),
        ...(this.ctx.decryptor !== undefined ? { decryptor: this.ctx.decryptor } : {}),
      },
      this.seed(),
    );
    const set = this.timelineSet;
    this.holders++;
    let released = false;
    return {
      set,
      release: () => {
        if (released) return;
        released = true;
        this.holders--;
        // Nobody looks at the room: fall back to the recent sync events.
        if (this.holders === 0) this.timelineSet = undefined;
      },
    };
  }

  /** Opens a timeline window (call load()); close() releases the timeline. */
  openTimeline(options: TimelineWindowOptions = {}): TimelineWindow {
    const { set, release } = this.acquireTimeline();
    const onDispose = options.onDispose;
    return new TimelineWindow(set, {
      ...options,
      onDispose: () => {
        release();
        onDispose?.();
      },
    });
  }

  /** Applies a joined room's update; `local`: counts the client computed (MSC4186 has no thread counts). */
  applyJoined(update: ParsedJoinedRoom, local?: UnreadBreakdown): void {
    this.unseed();
    this.category = "join";
    const timelineState = update.timeline.events.filter((e) => typeof e.state_key === "string");
    this.state =
      update.stateAfter !== undefined
        ? this.state.withEvents(update.stateAfter, this.onIgnoredState)
        : this.state.withEvents([...update.state, ...timelineState], this.onIgnoredState);
    if (update.summary !== undefined) this.summary = { ...this.summary, ...update.summary };
    const unread = local?.main ?? update.unreadNotifications;
    if (unread !== undefined) this.unread = unread;
    const threadUnread = local?.threads ?? update.unreadThreadNotifications;
    if (threadUnread !== undefined) {
      this.threadUnread = threadUnread;
      this.threads.setUnread(threadUnread);
    }
    for (const e of update.ephemeral) this.applyEphemeral(e);
    this.applyAccountData(update.accountData);
    this.addTimeline(update.timeline.events, update.timeline.limited, update.timeline.prevBatch);
    this.publish();
  }

  /**
   * The user's own read receipt, applied once the server took it (its sync
   * echo comes later): kept with the receipts, and the counts cleared at
   * once. `local`: the client-side counts after it (MSC4186); with the
   * server's counts, an unthreaded or main receipt on the newest event
   * clears the main count (and an unthreaded one every thread's).
   */
  applyOwnReceipt(receipt: Receipt, local?: UnreadBreakdown): void {
    this.receipts = this.receipts.with([receipt]);
    const { threadId, eventId } = receipt;
    if (threadId !== undefined && threadId !== "main")
      this.threads.setReadReceipts(new Map([[threadId, eventId]]));
    if (local !== undefined) {
      this.unread = local.main;
      this.threadUnread = local.threads;
      this.threads.setUnread(local.threads);
    } else if (eventId === this.latestEvent?.event_id && (threadId === undefined || threadId === "main")) {
      this.unread = NO_UNREAD;
      if (threadId === undefined) {
        this.threadUnread = new Map();
        this.threads.setUnread(this.threadUnread);
      }
    }
    this.publish();
  }

  /** Applies an invite (stripped state). */
  applyInvite(update: ParsedInvitedRoom): void {
    this.unseed();
    this.category = "invite";
    this.state = this.state.withEvents(update.inviteState, this.onIgnoredState);
    this.publish();
  }

  /** Applies a knock (stripped state). */
  applyKnock(update: ParsedKnockedRoom): void {
    this.unseed();
    this.category = "knock";
    this.state = this.state.withEvents(update.knockState, this.onIgnoredState);
    this.publish();
  }

  /** Applies a left room's final state and timeline. */
  applyLeft(update: ParsedLeftRoom): void {
    this.unseed();
    this.category = "leave";
    const timelineState = update.timeline.events.filter((e) => typeof e.state_key === "string");
    this.state =
      update.stateAfter !== undefined
        ? this.state.withEvents(update.stateAfter, this.onIgnoredState)
        : this.state.withEvents([...update.state, ...timelineState], this.onIgnoredState);
    this.applyAccountData(update.accountData);
    this.addTimeline(update.timeline.events, update.timeline.limited, update.timeline.prevBatch);
    this.publish();
  }

  /**
   * Members lazy-loaded with a page of history: only members the state does
   * not know yet are added, so historic events never override current state.
   */
  addLazyMembers(events: readonly ClientEventWithoutRoomId[]): void {
    const known = this.state.ofType("m.room.member");
    const unknown = events.filter((e) => e.state_key !== undefined && !known.has(e.state_key));
    if (unknown.length === 0) return;
    this.state = this.state.withEvents(unknown, this.onIgnoredState);
    this.publish();
  }

  /** Runs events fetched outside sync through the decrypt hook (thread timelines and lists). */
  decryptEvents(events: readonly ClientEventWithoutRoomId[]): Promise<ClientEventWithoutRoomId[]> {
    return decryptPage(this.ctx.decryptor, this.roomId, events);
  }

  /**
   * A late decryption: the clear event replaces its stand-in in the kept
   * sync events, the latest event, the threads and the open timeline (whose
   * windows publish an update). Returns whether the room held it.
   */
  applyDecrypted(event: ClientEventWithoutRoomId): boolean {
    let held = false;
    for (const segment of this.segments) held = replaceHeldEvent(segment.events, event) || held;
    const latest = this.latestEvent;
    if (latest?.event_id === event.event_id && !isRedacted(latest)) {
      this.latestEvent = event;
      held = true;
    }
    if (this.previewEvent?.event_id === event.event_id && !isRedacted(this.previewEvent)) {
      // A stand-in that decrypts to a reaction gives the preview back to the message before it.
      this.previewEvent = isPreviewEvent(event) ? event : this.newestPreviewEvent();
      held = true;
    }
    held = this.threads.replaceEvent(event, (id) => this.findEvent(id)) || held;
    held = (this.timelineSet?.replaceEvent(event) ?? false) || held;
    if (held) this.publish();
    return held;
  }

  /** Whether the room shows its summary entry only (its full state is not loaded yet). */
  get isSeeded(): boolean {
    return this.seededName !== undefined;
  }

  /** Shows the room from its room list summary entry until its first real update. */
  seedFromSummary(entry: RoomListSummaryEntry): void {
    this.category = entry.category;
    this.state = RoomState.empty().withEvents(entry.state);
    this.summary = entry.summary;
    this.unread = entry.unread;
    this.threadUnread = new Map(entry.threadUnread);
    this.accountData = new Map(entry.accountData.map((e) => [e.type, e]));
    this.latestEvent = entry.latestEvent;
    const preview = entry.previewEvent ?? entry.latestEvent;
    this.previewEvent = preview !== undefined && isPreviewEvent(preview) ? preview : undefined;
    this.seededName = entry.name;
    this.publish();
  }

  /** A seeded room's first real update starts from nothing: the summary's parts are replaced, not merged. */
  private unseed(): void {
    if (this.seededName === undefined) return;
    this.seededName = undefined;
    this.state = RoomState.empty();
    this.summary = {};
    this.unread = NO_UNREAD;
    this.threadUnread = new Map();
    this.accountData = new Map();
    this.latestEvent = undefined;
    this.previewEvent = undefined;
  }

  /** Recomputes what depends on the account's m.direct. */
  refreshDirect(): void {
    this.publish();
  }

  private seed(): TimelineSeed {
    return {
      events: this.recentEvents,
      backToken: this.segments[0]?.prevBatch ?? null,
      redactedRelTypes: this.redactedRelTypes,
    };
  }

  private addTimeline(
    events: readonly ClientEventWithoutRoomId[],
    limited: boolean,
    prevBatch?: string,
  ): void {
    if (events.length === 0 && !limited) return;
    const kept = this.ctx.recentEventsKept ?? RECENT_EVENTS_KEPT;
    const known = new Set(this.segments.flatMap((s) => s.events.map((e) => e.event_id)));
    const fresh = events.filter((e) => !known.has(e.event_id));
    for (const e of fresh) {
      if (e.type === "m.room.redaction") this.redactRecent(e);
    }
    if (limited) this.segments = [];
    if (fresh.length > 0 || limited) this.segments.push({ events: fresh, prevBatch: prevBatch ?? null });
    // Drop whole segments only, so the oldest kept event keeps an exact token.
    let total = this.segments.reduce((n, s) => n + s.events.length, 0);
    while (this.segments.length > 1 && total - (this.segments[0]?.events.length ?? 0) >= kept) {
      total -= this.segments.shift()?.events.length ?? 0;
    }
    const first = this.segments[0];
    if (first !== undefined && first.events.length > kept * 4) {
      // One huge batch: keep its newest events; its token no longer fits them.
      first.events = first.events.slice(-kept);
      first.prevBatch = null;
    }
    for (const e of fresh) {
      if (this.latestEvent === undefined || e.origin_server_ts >= this.latestEvent.origin_server_ts)
        this.latestEvent = e;
      if (
        isPreviewEvent(e) &&
        (this.previewEvent === undefined || e.origin_server_ts >= this.previewEvent.origin_server_ts)
      )
        this.previewEvent = e;
    }
    this.threads.addEvents(fresh, (id) => this.findEvent(id));
    this.threads.notifyRelated(fresh);
    this.timelineSet?.addLive(fresh, limited, prevBatch);
  }

  /** Every event the room holds now: the recent sync events and the open timeline's. */
  knownEvents(): ClientEventWithoutRoomId[] {
    return [...this.recentEvents, ...(this.timelineSet?.allEvents() ?? [])];
  }

  /** An event the room holds now (recent sync events or the open timeline). */
  findEvent(eventId: string): ClientEventWithoutRoomId | undefined {
    for (const segment of this.segments) {
      const found = segment.events.find((e) => e.event_id === eventId);
      if (found !== undefined) return found;
    }
    return this.timelineSet?.event(eventId);
  }

  /** The newest preview event of the kept sync events. */
  private newestPreviewEvent(): ClientEventWithoutRoomId | undefined {
    for (let i = this.segments.length - 1; i >= 0; i--) {
      const found = newestPreviewEvent(this.segments[i]?.events ?? []);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  /** A redaction arriving later strips its target in the kept events too. */
  private redactRecent(redaction: ClientEventWithoutRoomId): void {
    const target = redactedEventId(redaction);
    if (target === undefined) return;
    for (const segment of this.segments) {
      const i = segment.events.findIndex((e) => e.event_id === target);
      const original = segment.events[i];
      if (original === undefined || isRedacted(original)) continue;
      // Redaction strips m.relates_to: remember what it was, so a timeline built later still hides it.
      const relType = relationOf(original)?.relType;
      if (relType !== undefined) this.redactedRelTypes.set(target, relType);
      segment.events[i] = redactEvent(original, redaction, this.state.rules);
      if (this.latestEvent?.event_id === target) this.latestEvent = segment.events[i];
      if (this.previewEvent?.event_id === target) this.previewEvent = segment.events[i];
    }
  }

  private applyEphemeral(event: BasicEvent): void {
    if (event.type === "m.typing") {
      const ids = own(event.content, "user_ids");
      this.typing = Array.isArray(ids) ? ids.filter((id): id is string => typeof id === "string") : [];
    } else if (event.type === "m.receipt") {
      const receipts = parseReceiptEvent(event, this.ctx.userId);
      this.receipts = this.receipts.with(receipts);
      // The user's threaded receipts mark how far each thread was read.
      const own = new Map<string, string>();
      for (const r of receipts) {
        if (r.userId !== this.ctx.userId || r.threadId === undefined || r.threadId === "main") continue;
        own.set(r.threadId, r.eventId);
      }
      if (own.size > 0) this.threads.setReadReceipts(own);
    }
  }

  private applyAccountData(events: readonly BasicEvent[]): void {
    if (events.length === 0) return;
    const next = new Map(this.accountData);
    for (const e of events) next.set(e.type, e);
    this.accountData = next;
  }

  private publish(): void {
    this.value.set(this.build());
  }

  private build(): RoomSnapshot {
    const state = this.state;
    const members = state.members;
    const counts = state.memberCounts();
    const directUserId = this.ctx.directUserOf(this.roomId);
    const name =
      this.seededName ??
      roomName({
        userId: this.ctx.userId,
        nameContent: state.content("m.room.name"),
        canonicalAliasContent: state.content("m.room.canonical_alias"),
        summary: summaryJson(this.summary),
        joinedMemberCount: counts.joined,
        invitedMemberCount: counts.invited,
        memberName: (id) => members.get(id)?.name,
      });
    const partnerAvatar = directUserId !== undefined ? members.get(directUserId)?.avatarUrl : undefined;
    const avatarUrl = roomAvatarUrl(state.content("m.room.avatar"), partnerAvatar);
    const predecessor = state.predecessor;
    const tombstone = state.tombstone;
    const inviter =
      this.category === "invite"
        ? (state.get("m.room.member", this.ctx.userId) as StrippedStateEvent | undefined)?.sender
        : undefined;
    return Object.freeze({
      roomId: this.roomId,
      category: this.category,
      state,
      members,
      name,
      ...(avatarUrl !== undefined ? { avatarUrl } : {}),
      ...(directUserId !== undefined ? { directUserId } : {}),
      isDirect: directUserId !== undefined,
      isSpace: state.isSpace,
      ...(predecessor !== undefined ? { predecessor } : {}),
      ...(tombstone !== undefined ? { tombstone } : {}),
      isEncrypted: state.isEncrypted,
      summary: this.summary,
      unread: this.unread,
      threadUnread: this.threadUnread,
      tags: tagsOf(this.accountData.get("m.tag")),
      accountData: this.accountData,
      receipts: this.receipts,
      typing: this.typing,
      ...(this.latestEvent !== undefined ? { latestEvent: this.latestEvent } : {}),
      ...(this.previewEvent !== undefined ? { previewEvent: this.previewEvent } : {}),
      lastActivityTs: this.latestEvent?.origin_server_ts ?? 0,
      ...(inviter !== undefined ? { inviter } : {}),
    });
  }
}
