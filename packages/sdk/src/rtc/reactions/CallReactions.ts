/**
 * Raised hands and reactions of one joined call (forms in content.ts).
 *
 * - Hands: restored on start from the annotations on every member's
 *   membership event (GET /relations, decrypted in encrypted rooms), then
 *   kept from the room's events: a hand counts only while its sender is a
 *   member whose current membership event it annotates, so a member who
 *   leaves, or re-joins with a new membership event, has their hand
 *   cleared; a redaction of the reaction lowers it. Our own hand is the
 *   exception: while we want it up, a new membership event of ours (a
 *   re-join after our delayed leave fired, a refresh) gets it raised again.
 * - Reactions: shown for REACTION_SHOW_MS on the sender's tile; while one
 *   shows, the member's next one is ignored (Element Call's rate limit).
 *   Only a current member's reaction to their own membership event counts.
 *
 * Bad input is ignored, never thrown; members are keyed by memberKey (a
 * Map, so a user id like "__proto__" is data). It owns its timers and its
 * membership subscription; `end()` releases them.
 */
import type { ClientEventWithoutRoomId } from "../../api/types/events";
import { ObservableValue } from "../../util/observable";
import type { ReadonlyObservable } from "../../util/observable";
import type { Scheduler } from "../../util/scheduler";
import { CALL_REACTION_EVENT } from "../constants";
import type { CallMembership } from "../membership/types";
import {
  knownReaction,
  parseHand,
  parseReaction,
  raisedHandContent,
  reactionContent,
  REACTION_SHOW_MS,
  redactedId,
} from "./content";
import type { HandEvent, ReactionOption } from "./content";

/** Hand events whose membership is not known yet, kept for the next membership change (bounded). */
const PENDING_HANDS_MAX = 64;
/** Our sent reactions whose echo has not come yet (bounded: an echo may come before the send resolves). */
const OWN_SENT_MAX = 16;

/** What the tracker sends and fetches; the client sends through the room's send queue (encrypted where the room is). */
export interface CallReactionsIo {
  /** Sends a room event; resolves with its event id. */
  send(type: string, content: Record<string, unknown>): Promise<string | undefined>;
  redact(eventId: string): Promise<void>;
  /** The annotations on `eventId`, decrypted where the room is encrypted. */
  annotations(eventId: string): Promise<readonly ClientEventWithoutRoomId[]>;
}

export interface CallReactionsOptions {
  io: CallReactionsIo;
  scheduler: Scheduler;
  userId: string;
  deviceId: string;
  /** The session's current memberships. */
  memberships: ReadonlyObservable<readonly CallMembership[]>;
  warn?: (message: string, error?: unknown) => void;
}

/** A member's raised hand. */
export interface RaisedHand {
  readonly userId: string;
  readonly deviceId: string;
  readonly membershipEventId: string;
  readonly reactionEventId: string;
  /** When it was raised (the server's timestamp; ours until the echo for our own). */
  readonly raisedAt: number;
}

/** A reaction showing on a member's tile. */
export interface ShownReaction {
  readonly userId: string;
  readonly deviceId: string;
  readonly emoji: string;
  readonly name: string;
  /** Whether the name is one of CALL_REACTIONS. */
  readonly known: boolean;
}

function safely<T>(read: () => T): T | null {
  try {
    return read();
  } catch {
    return null;
  }
}

/** The key of a member's device in `raisedHands` and `reactions`. */
export function memberKey(userId: string, deviceId: string): string {
  return JSON.stringify([userId, deviceId]);
}

/** A refused raise, lower or reaction. */
export class CallReactionsError extends Error {
  constructor(
    readonly code: "NOT_IN_CALL",
    message: string,
  ) {
    super(message);
    this.name = "CallReactionsError";
  }
}

/** Raising a hand or reacting needs our membership event, which the room shows once we have joined. */
export const NOT_IN_CALL = "You are not in the call yet";

export class CallReactions {
  private readonly hands = new ObservableValue<ReadonlyMap<string, RaisedHand>>(new Map());
  private readonly shown = new ObservableValue<ReadonlyMap<string, ShownReaction>>(new Map());
  private readonly pendingHands: HandEvent[] = [];
  private readonly ownSent = new Set<string>();
  private readonly stop = new AbortController();
  private unsubscribe: (() => void) | undefined;
  private handSend: Promise<void> = Promise.resolve();
  /** Whether we want our hand up: raised and not lowered since, so a new membership of ours takes it along. */
  private handWanted = false;

  constructor(private readonly options: CallReactionsOptions) {}

  /** Raised hands by memberKey. */
  get raisedHands(): ReadonlyObservable<ReadonlyMap<string, RaisedHand>> {
    return this.hands;
  }

  /** Reactions showing now, by memberKey. */
  get reactions(): ReadonlyObservable<ReadonlyMap<string, ShownReaction>> {
    return this.shown;
  }

  /** Follows the memberships and restores the hands raised before we came. */
  async start(): Promise<void> {
    this.unsubscribe = this.options.memberships.subscribe(() => this.onMemberships());
    await this.restore();
  }

  /**
   * Reads each member's hand from their membership event's annotations: on
   * start, and again after a gap in sync (a raise or a redaction in the gap
   * was missed). A hand the server no longer lists is lowered, unless it
   * changed while the request was out.
   */
  async restore(): Promise<void> {
    const members = this.options.memberships.getSnapshot();
    await Promise.all(
      members.map(async (m) => {
        const id = m.eventId;
        if (id === undefined) return;
        const key = memberKey(m.sender, m.deviceId);
        const before = this.hands.getSnapshot().get(key);
        let events: readonly ClientEventWithoutRoomId[];
        try {
          events = await this.options.io.annotations(id);
        } catch (error) {
          this.options.warn?.(`Could not read the raised hands on ${id}`, error);
          return;
        }
        if (this.stop.signal.aborted) return;
        const found = events
          .map((e) => safely(() => parseHand(e)))
          .find((h) => h?.sender === m.sender && h.membershipEventId === id);
        if (found) this.applyHand(found);
        else if (before !== undefined && this.hands.getSnapshot().get(key) === before) {
          // Ours lowered in the gap (by another device of ours): it stays down.
          if (before === this.ownHand()) this.handWanted = false;
          this.dropHands((h) => h === before);
        }
      }),
    );
  }

  /** Stops timers and the membership watch. */
  end(): void {
    this.stop.abort();
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  /** Reads one room event (a hand, a reaction, a redaction); anything else or malformed is ignored. */
  receive(event: ClientEventWithoutRoomId): void {
    if (this.stop.signal.aborted) return;
    try {
      if (event.type === "m.reaction") this.onHand(event);
      else if (event.type === CALL_REACTION_EVENT) this.onReaction(event);
      else if (event.type === "m.room.redaction") this.onRedaction(event);
    } catch (error) {
      this.options.warn?.(`Ignored a call reaction event ${String(event.event_id)}`, error);
    }
  }

  private memberFor(sender: string, membershipEventId: string): CallMembership | undefined {
    return this.options.memberships
      .getSnapshot()
      .find((m) => m.eventId === membershipEventId && m.sender === sender);
  }

  private onHand(event: ClientEventWithoutRoomId): void {
    const hand = parseHand(event);
    if (hand === null) return;
    if (!this.applyHand(hand)) {
      this.pendingHands.push(hand);
      if (this.pendingHands.length > PENDING_HANDS_MAX) this.pendingHands.shift();
    }
  }

  /** Applies a hand of a current member; false when its membership is not (yet) one. */
  private applyHand(hand: HandEvent): boolean {
    const m = this.memberFor(hand.sender, hand.membershipEventId);
    if (m === undefined) return false;
    const key = memberKey(m.sender, m.deviceId);
    const before = this.hands.getSnapshot().get(key);
    const same = before?.membershipEventId === hand.membershipEventId;
    // Already up (our own echo, or the same hand from the restore and from sync).
    if (same && before.reactionEventId === hand.reactionEventId) return true;
    const next = new Map(this.hands.getSnapshot());
    next.set(key, {
      userId: m.sender,
      deviceId: m.deviceId,
      membershipEventId: hand.membershipEventId,
      // Another hand reaction on the same membership: the newest is the one a lower redacts; the place stays.
      reactionEventId: hand.reactionEventId,
      raisedAt: same ? before.raisedAt : (hand.ts ?? this.options.scheduler.now()),
    });
    this.hands.set(next);
    return true;
  }

  private onReaction(event: ClientEventWithoutRoomId): void {
    if (this.ownSent.delete(event.event_id)) return; // our own echo: shown when we sent it
    const reaction = parseReaction(event);
    if (reaction === null) return;
    const m = this.memberFor(reaction.sender, reaction.membershipEventId);
    if (m === undefined) return;
    const known = knownReaction(reaction.name);
    this.show(m.sender, m.deviceId, {
      emoji: reaction.emoji,
      name: reaction.name,
      known: known !== undefined,
    });
  }

  /** Shows a reaction on a member's tile for REACTION_SHOW_MS; false while one still shows there. */
  private show(userId: string, deviceId: string, what: Omit<ShownReaction, "userId" | "deviceId">): boolean {
    const key = memberKey(userId, deviceId);
    if (this.shown.getSnapshot().has(key)) return false;
    const entry: ShownReaction = { userId, deviceId, ...what };
    this.shown.set(new Map(this.shown.getSnapshot()).set(key, entry));
    this.options.scheduler.sleep(REACTION_SHOW_MS, this.stop.signal).then(
      () => this.hide(key, entry),
      () => undefined,
    );
    return true;
  }

  private hide(key: string, entry: ShownReaction): void {
    if (this.shown.getSnapshot().get(key) !== entry) return;
    const next = new Map(this.shown.getSnapshot());
    next.delete(key);
    this.shown.set(next);
  }

  private onRedaction(event: ClientEventWithoutRoomId): void {
    const id = redactedId(event);
    if (id === null) return;
    // Our hand taken down elsewhere (another device of ours): it stays down.
    if (this.ownHand()?.reactionEventId === id) this.handWanted = false;
    this.dropHands((h) => h.reactionEventId === id);
    const i = this.pendingHands.findIndex((h) => h.reactionEventId === id);
    if (i >= 0) this.pendingHands.splice(i, 1);
  }

  private dropHands(match: (hand: RaisedHand) => boolean): void {
    const before = this.hands.getSnapshot();
    const next = new Map([...before].filter(([, h]) => !match(h)));
    if (next.size !== before.size) this.hands.set(next);
  }

  /** A member who left, or re-joined with a new membership event, has their hand down. */
  private onMemberships(): void {
    const current = this.options.memberships.getSnapshot();
    this.dropHands(
      (h) =>
        !current.some(
          (m) => m.eventId === h.membershipEventId && m.sender === h.userId && m.deviceId === h.deviceId,
        ),
    );
    const waiting = this.pendingHands.splice(0);
    for (const hand of waiting) if (!this.applyHand(hand)) this.pendingHands.push(hand);
    this.carryOwnHand();
  }

  /**
   * Our hand stays up across a new membership event of ours: once it shows,
   * the hand is raised again on it (peers, Element Call too, count a hand
   * only on the member's current membership event).
   */
  private carryOwnHand(): void {
    if (!this.handWanted || this.ownHand() !== undefined) return;
    if (this.ownMembership() === undefined) return;
    this.serial(async () => {
      if (this.handWanted && this.ownHand() === undefined) await this.sendHand();
    }).catch((error: unknown) =>
      this.options.warn?.("Could not raise the hand again on our new membership", error),
    );
  }

  /** Our membership, once the room shows its event. */
  private ownMembership(): (CallMembership & { eventId: string }) | undefined {
    const { userId, deviceId } = this.options;
    return this.options.memberships
      .getSnapshot()
      .find(
        (m): m is CallMembership & { eventId: string } =>
          m.sender === userId && m.deviceId === deviceId && m.eventId !== undefined,
      );
  }

  private ownMembershipEventId(): string {
    const own = this.ownMembership();
    if (own === undefined) throw new CallReactionsError("NOT_IN_CALL", NOT_IN_CALL);
    return own.eventId;
  }

  /** Our hand, if raised. */
  ownHand(): RaisedHand | undefined {
    return this.hands.getSnapshot().get(memberKey(this.options.userId, this.options.deviceId));
  }

  /** Raises our hand (an annotation on our membership event); nothing when it is up. */
  raiseHand(): Promise<void> {
    this.handWanted = true;
    return this.serial(async () => {
      if (this.ownHand() !== undefined) return;
      try {
        await this.sendHand();
      } catch (error) {
        this.handWanted = false; // refused (not in the call yet, or the send failed): not raised later by itself
        throw error;
      }
    });
  }

  private async sendHand(): Promise<void> {
    const membershipEventId = this.ownMembershipEventId();
    const id = await this.options.io.send("m.reaction", raisedHandContent(membershipEventId));
    if (id === undefined) return;
    // False when our membership changed while it was sent: carryOwnHand raises it on the new one.
    const applied = this.applyHand({
      sender: this.options.userId,
      membershipEventId,
      reactionEventId: id,
      ts: this.options.scheduler.now(),
    });
    if (!applied) this.carryOwnHand();
  }

  /** Lowers our hand (redacts its reaction); nothing when it is down. */
  lowerHand(): Promise<void> {
    this.handWanted = false;
    return this.serial(async () => {
      const hand = this.ownHand();
      if (hand === undefined) return;
      await this.options.io.redact(hand.reactionEventId);
      this.dropHands((h) => h.reactionEventId === hand.reactionEventId);
    });
  }

  /** Raises and lowers run one after another, so a quick toggle lowers the hand it raised. */
  private serial(action: () => Promise<void>): Promise<void> {
    const next = this.handSend.then(action);
    this.handSend = next.catch(() => undefined);
    return next;
  }

  /**
   * Sends a reaction and shows it on our tile at once; false (nothing sent)
   * while our previous one still shows, as peers would ignore it.
   */
  async react(reaction: ReactionOption): Promise<boolean> {
    const membershipEventId = this.ownMembershipEventId();
    const { userId, deviceId } = this.options;
    const what = {
      emoji: reaction.emoji,
      name: reaction.name,
      known: knownReaction(reaction.name) !== undefined,
    };
    if (!this.show(userId, deviceId, what)) return false;
    try {
      const id = await this.options.io.send(
        CALL_REACTION_EVENT,
        reactionContent(membershipEventId, reaction),
      );
      if (id !== undefined) this.ownSent.add(id);
      for (const old of this.ownSent) if (this.ownSent.size > OWN_SENT_MAX) this.ownSent.delete(old);
      return true;
    } catch (error) {
      const key = memberKey(userId, deviceId);
      const entry = this.shown.getSnapshot().get(key);
      if (entry) this.hide(key, entry);
      throw error;
    }
  }
}
