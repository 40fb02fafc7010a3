/**
 * ThreadTimeline: one thread's events, root first, as TimelineItems. Older
 * replies come 30 a page from /relations (rel_type m.thread, newest first);
 * new replies arrive live through the room's RoomThreads. Edits, reactions
 * and redactions inside the thread are applied as they arrive, published as
 * real diffs (an appended reply is an insert, an edit an update). Against a
 * server without /relations it shows the replies the room has seen.
 * Fetched events pass through the room's decrypt hook; a late decryption
 * replaces its event in place (an update diff).
 */
import type { ClientEventWithoutRoomId } from "../../api/types/events";
import { relations } from "../../api/relations";
import { getEvent } from "../../api/timeline";
import { isUnrecognisedError } from "../../http/errors";
import type { HttpApi } from "../../http/types";
import type { Scheduler } from "../../util/scheduler";
import { ObservableList } from "../../util/observable-list";
import type { ReadonlyObservableList } from "../../util/observable-list";
import { isRedacted, redactedEventId, redactEvent } from "../redaction";
import { relationOf } from "../relations";
import { own } from "../json";
import type { Room } from "../room/Room";
import { PAGINATION_PAGE_SIZE, withRetry } from "../timeline/pagination";
import { RelationIndex } from "../timeline/RelationIndex";
import { buildItem } from "../timeline/TimelineItem";
import { isUsableEvent, usableEvents } from "../timeline/validate";
import type { TimelineItem } from "../timeline/TimelineItem";
import { patchList } from "./patch-list";
import { DEFAULT_VALIDATION_LIMITS } from "../../sync/validate/limits";
import { isEchoableToken } from "../../sync/validate/tokens";

export interface ThreadTimelineOptions {
  room: Room;
  rootId: string;
  http: HttpApi;
  scheduler: Scheduler;
  pageSize?: number;
}

export class ThreadTimeline {
  private readonly list = new ObservableList<TimelineItem>();
  private readonly relations = new RelationIndex();
  /** Built items by event id; an event's entry is dropped when it or its relations change. */
  private readonly built = new Map<string, TimelineItem>();
  /** Edits and reactions (aggregated onto their targets, never shown), by event id. */
  private readonly aggregations = new Set<string>();
  /** Thread events, oldest first (the root first once known). */
  private events: ClientEventWithoutRoomId[] = [];
  private readonly ids = new Set<string>();
  private token: string | null | undefined;
  private root: ClientEventWithoutRoomId | undefined;
  private readonly unsubscribe: Array<() => void>;

  constructor(private readonly options: ThreadTimelineOptions) {
    this.unsubscribe = [
      options.room.threads.onReply((rootId, event) => {
        if (rootId === options.rootId) this.addLive([event]);
      }),
      options.room.threads.onRelated((event) => {
        // Edits, reactions and redactions of this thread's events.
        const target =
          event.type === "m.room.redaction" ? redactedEventId(event) : relationOf(event)?.eventId;
        if (target !== undefined && this.ids.has(target)) this.addLive([event]);
      }),
      options.room.threads.onDecrypted((event) => this.replace(event)),
    ];
  }

  get items(): ReadonlyObservableList<TimelineItem> {
    return this.list;
  }

  /** Whether older replies may remain. */
  get canPaginate(): boolean {
    return this.token !== null;
  }

  /** Loads the root and the newest page of replies. */
  async load(): Promise<void> {
    const { room, rootId } = this.options;
    this.root = room.threads.get(rootId)?.root ?? room.findEvent(rootId) ?? (await this.fetchRoot());
    await this.paginate();
  }

  private async fetchRoot(): Promise<ClientEventWithoutRoomId | undefined> {
    const { room, rootId, http } = this.options;
    const event: unknown = await getEvent(http, room.roomId, rootId);
    if (!isUsableEvent(event)) return undefined;
    const root = (await room.decryptEvents([event]))[0];
    // /event bundles the thread's summary on the root: the thread list's counts come from it.
    if (root !== undefined) room.threads.addEvents([root], (id) => room.findEvent(id));
    return root;
  }

  /** Loads one older page of replies; resolves with whether more may remain. */
  async paginate(): Promise<boolean> {
    if (this.token === null) return false;
    const { room, rootId, http, scheduler } = this.options;
    let page: unknown;
    try {
      page = await withRetry(
        () =>
          relations(http, room.roomId, rootId, {
            relType: "m.thread",
            dir: "b",
            limit: this.options.pageSize ?? PAGINATION_PAGE_SIZE,
            ...(typeof this.token === "string" ? { from: this.token } : {}),
          }),
        scheduler,
      );
    } catch (error) {
      if (!isUnrecognisedError(error)) throw error;
      // No /relations: show what the room has seen of the thread.
      const seen = room.recentEvents.filter((e) => e.content["m.relates_to"] !== undefined);
      this.token = null;
      this.addOlder(seen.filter((e) => belongsTo(e, rootId)).reverse());
      return false;
    }
    const chunk = await room.decryptEvents(usableEvents(own(page, "chunk")));
    const next = own(page, "next_batch");
    this.token =
      isEchoableToken(next, DEFAULT_VALIDATION_LIMITS.maxStringLength) && chunk.length > 0 ? next : null;
    this.addOlder(chunk);
    return this.token !== null;
  }

  /** Stops following live replies. */
  dispose(): void {
    for (const off of this.unsubscribe) off();
  }

  /** A late-decrypted event takes its stand-in's place. */
  private replace(event: ClientEventWithoutRoomId): void {
    const i = this.events.findIndex((e) => e.event_id === event.event_id);
    const old = this.events[i];
    if (old === undefined || isRedacted(old)) return;
    this.events[i] = event;
    if (this.root?.event_id === event.event_id) this.root = event;
    this.afterChange([event]);
  }

  /** Adds older events (newest first). */
  private addOlder(newestFirst: readonly ClientEventWithoutRoomId[]): void {
    const fresh = newestFirst.filter((e) => !this.ids.has(e.event_id)).reverse();
    for (const e of fresh) this.ids.add(e.event_id);
    const hasRoot = this.events[0]?.event_id === this.options.rootId;
    const rest = hasRoot ? this.events.slice(1) : this.events;
    const root = this.root !== undefined && !this.ids.has(this.root.event_id) ? [this.root] : [];
    for (const e of root) this.ids.add(e.event_id);
    this.events = [...(hasRoot ? this.events.slice(0, 1) : root), ...fresh, ...rest];
    this.afterChange(fresh.concat(root));
  }

  private addLive(oldestFirst: readonly ClientEventWithoutRoomId[]): void {
    const fresh = oldestFirst.filter((e) => !this.ids.has(e.event_id));
    for (const e of fresh) {
      this.ids.add(e.event_id);
      // A reply the room met by scrolling its main timeline back may be older than ours: keep the order.
      let at = this.events.length;
      while (at > 0) {
        const before = this.events[at - 1];
        if (before === undefined || before.event_id === this.options.rootId) break;
        if (before.origin_server_ts <= e.origin_server_ts) break;
        at--;
      }
      this.events.splice(at, 0, e);
    }
    this.afterChange(fresh);
  }

  private afterChange(added: readonly ClientEventWithoutRoomId[]): void {
    for (const e of added) {
      this.relations.add(e);
      this.stale(e.event_id);
      // An edit or reaction changes its target's item (a thread reply does not change the root's).
      if (RelationIndex.isAggregation(e)) {
        this.aggregations.add(e.event_id);
        this.stale(relationOf(e)?.eventId);
      }
      const target = e.type === "m.room.redaction" ? redactedEventId(e) : undefined;
      const i = target !== undefined ? this.events.findIndex((x) => x.event_id === target) : -1;
      const original = this.events[i];
      if (original === undefined) continue;
      this.stale(original.event_id);
      // A redacted edit or reaction changes its target's item too.
      if (this.aggregations.has(original.event_id)) this.stale(relationOf(original)?.eventId);
      if (!isRedacted(original))
        this.events[i] = redactEvent(original, e, this.options.room.getSnapshot().state.rules);
    }
    // A redacted edit or reaction loses its relation but stays hidden.
    const shown = this.events.filter(
      (e) => e.type !== "m.room.redaction" && !this.aggregations.has(e.event_id),
    );
    const items = shown.map((e) => {
      let item = this.built.get(e.event_id);
      if (item === undefined) {
        item = buildItem(e, this.relations);
        this.built.set(e.event_id, item);
      }
      return item;
    });
    // Unchanged events keep their item objects, so only real changes become diffs.
    patchList(this.list, items, (item) => item.eventId);
  }

  /** Forgets the built item of an event, so the next change rebuilds it. */
  private stale(eventId: string | undefined): void {
    if (eventId !== undefined) this.built.delete(eventId);
  }
}

function belongsTo(event: ClientEventWithoutRoomId, rootId: string): boolean {
  const rel = event.content["m.relates_to"];
  return (
    typeof rel === "object" &&
    rel !== null &&
    (rel as Record<string, unknown>)["event_id"] === rootId &&
    (rel as Record<string, unknown>)["rel_type"] === "m.thread"
  );
}
