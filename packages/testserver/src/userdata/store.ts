/**
 * Per-user data: account data, tags, receipts, typing, presence, push rules
 * and their evaluation, pushers, filters, delayed events.
 *
 * The methods below the constructor are the cross-domain contract that sync
 * (rooms/) calls; the state itself lives in one small store per family,
 * reachable as fields for the userdata routes and for tests.
 */
import type { ServerContext } from "../core/context";
import type { JsonObject } from "../core/events";
import { AccountDataStore } from "./account-data";
import { DelayedEventStore, parseDelayQuery } from "./delayed-events";
import { FilterStore } from "./filters";
import { PresenceStore } from "./presence";
import { NotificationEngine } from "./push/notifications";
import { PushRulesStore } from "./push/rules-store";
import { PusherStore } from "./pushers";
import { ReceiptStore } from "./receipts";
import { TypingStore } from "./typing";

export interface UnreadCounts {
  notification_count: number;
  highlight_count: number;
}

export interface RoomUnread extends UnreadCounts {
  /** Per-thread counts, keyed by thread root event id (main timeline excluded). */
  threads: Map<string, UnreadCounts>;
}

export class UserDataStore {
  readonly accountData: AccountDataStore;
  readonly receipts: ReceiptStore;
  readonly typing: TypingStore;
  readonly presence: PresenceStore;
  readonly pushRules: PushRulesStore;
  readonly notifications: NotificationEngine;
  readonly pushers = new PusherStore();
  readonly filters = new FilterStore();
  readonly delayed: DelayedEventStore;

  constructor(protected readonly ctx: ServerContext) {
    this.accountData = new AccountDataStore(ctx);
    this.receipts = new ReceiptStore(ctx);
    this.typing = new TypingStore(ctx);
    this.presence = new PresenceStore(ctx);
    this.pushRules = new PushRulesStore(ctx);
    this.notifications = new NotificationEngine(ctx, this.pushRules, this.receipts);
    this.delayed = new DelayedEventStore(ctx);
  }

  /** A stored filter (POST /user/{userId}/filter), or undefined. */
  filter(userId: string, filterId: string): JsonObject | undefined {
    return this.filters.get(userId, filterId);
  }

  /**
   * Global account data events ({type, content}) changed after `since` (all
   * when since is 0), including m.push_rules on the initial sync and after
   * every push rule change.
   */
  globalAccountDataSince(userId: string, since: number): JsonObject[] {
    const events = this.accountData.globalSince(userId, since);
    if (since === 0 || this.pushRules.changedAt(userId) > since) {
      events.push({ type: "m.push_rules", content: { global: this.pushRules.ruleset(userId) } });
    }
    return events;
  }

  /** Room account data (including m.tag and m.fully_read) changed after `since`. */
  roomAccountDataSince(userId: string, roomId: string, since: number): JsonObject[] {
    return this.accountData.roomSince(userId, roomId, since);
  }

  /** Ephemeral events for the room after `since`: m.typing (current) and m.receipt (new ones; all on 0). */
  ephemeralSince(userId: string, roomId: string, since: number): JsonObject[] {
    const out: JsonObject[] = [];
    const typing = this.typing.ephemeralFor(roomId, since);
    if (typing) out.push(typing);
    const receipts = this.receipts.ephemeralFor(roomId, userId, since);
    if (receipts) out.push(receipts);
    return out;
  }

  /** m.presence events of these users changed after `since`. */
  presenceSince(_userId: string, since: number, users: Iterable<string>): JsonObject[] {
    return this.presence.since(since, users, (id) => {
      const profile = this.ctx.accounts.profile(id);
      const out: JsonObject = {};
      if (profile?.displayname !== undefined) out["displayname"] = profile.displayname;
      if (profile?.avatar_url !== undefined) out["avatar_url"] = profile.avatar_url;
      return out;
    });
  }

  /** Sets presence from a sync's set_presence parameter. */
  setPresenceFromSync(userId: string, presence: string): void {
    this.presence.fromSync(userId, presence);
  }

  /**
   * Unread notification and highlight counts for the user in a room, from
   * push rules and receipts. The top-level counts are the main timeline's
   * (thread events excluded); a sync answering a client that did not ask
   * for unread_thread_notifications should add the threads' counts to them.
   */
  unreadCounts(userId: string, roomId: string): RoomUnread {
    const { main, threads } = this.notifications.unread(userId, roomId);
    return { ...main, threads };
  }

  /**
   * Schedules a delayed event (MSC4140) for the rooms domain's send and
   * state routes when the `org.matrix.msc4140.delay` (or
   * `org.matrix.msc4140.parent_delay_id`) query parameter is present.
   * Returns the body to answer with; throws MatrixHttpError on bad input.
   */
  scheduleDelayedEvent(
    userId: string,
    roomId: string,
    type: string,
    content: JsonObject,
    stateKey: string | undefined,
    delayMs: number | undefined,
    parentDelayId: string | undefined,
  ): { delay_id: string } {
    return this.delayed.schedule(userId, roomId, type, content, stateKey, delayMs, parentDelayId);
  }

  /**
   * The send and state routes' one-line hook: when the query asks for a
   * delay (`org.matrix.msc4140.delay` or `org.matrix.msc4140.parent_delay_id`),
   * schedules the event and returns `{delay_id}` to answer with; otherwise
   * returns undefined and the route sends as usual.
   */
  scheduleFromQuery(
    userId: string,
    roomId: string,
    type: string,
    content: JsonObject,
    stateKey: string | undefined,
    query: URLSearchParams,
  ): { delay_id: string } | undefined {
    // The legacy profile (Synapse 1.67) does not know the parameters: the event is sent at once.
    if (this.ctx.config.profile === "legacy") return undefined;
    const delay = parseDelayQuery(query);
    if (!delay) return undefined;
    return this.scheduleDelayedEvent(
      userId,
      roomId,
      type,
      content,
      stateKey,
      delay.delayMs,
      delay.parentDelayId,
    );
  }
}
