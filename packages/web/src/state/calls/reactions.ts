/**
 * Raised hands and reactions for the call view (LiveKit calls), over the
 * SDK's CallReactions of the joined call: our hand's toggle, the reactions
 * the picker offers, and per member device what its tile shows: the place
 * of its hand in the order hands went up (1 = first), and the reaction
 * showing now. Before the call is joined nothing can be raised or sent
 * (`available` is false). Loaded with the call chunk only.
 */
import { CALL_REACTIONS, memberKey } from "../../sdk";
import type { CallReactions, RaisedHand, ReactionOption, ShownReaction } from "../../sdk";
import { ObservableValue } from "../observables";
import type { ReadonlyObservable } from "../observables";
import { Scope } from "../Scope";

/** A reaction as a tile shows it. */
export interface TileReaction {
  readonly emoji: string;
  /** The known reaction's name (a translation key), or "" for one we do not know. */
  readonly name: string;
}

/** What a tile reads for its member: the hand's place (undefined: down) and the reaction showing. */
export interface TileReactions {
  readonly hand: ReadonlyObservable<number | undefined>;
  readonly reaction: ReadonlyObservable<TileReaction | undefined>;
}

/** What the controls read and do. */
export interface CallReactionsView {
  readonly options: readonly ReactionOption[];
  /** Raising and reacting work once we are in the call. */
  readonly available: ReadonlyObservable<boolean>;
  readonly handRaised: ReadonlyObservable<boolean>;
  toggleHand(): Promise<void>;
  react(option: ReactionOption): Promise<void>;
}

interface TileValues {
  hand: ObservableValue<number | undefined>;
  reaction: ObservableValue<TileReaction | undefined>;
}

/** Hands in the order raised (earliest first; ties by member, so every page agrees). */
function handOrder(hands: ReadonlyMap<string, RaisedHand>): Map<string, number> {
  const sorted = [...hands].sort(
    ([ka, a], [kb, b]) => a.raisedAt - b.raisedAt || (ka < kb ? -1 : ka > kb ? 1 : 0),
  );
  return new Map(sorted.map(([key], i) => [key, i + 1]));
}

export class CallReactionsViewModel implements CallReactionsView {
  readonly options = CALL_REACTIONS;
  readonly available = new ObservableValue(false);
  readonly handRaised = new ObservableValue(false);
  private readonly tiles = new Map<string, TileValues>();
  private readonly scope = new Scope();
  private tracker: CallReactions | undefined;

  constructor(
    private readonly own: { userId: string; deviceId: string },
    /** A failed raise, lower or reaction, in words. */
    private readonly onError: (message: string) => void,
  ) {}

  /** The observables of a member device's tile (one pair per device, so subscriptions stay stable). */
  tile(userId: string, deviceId: string): TileReactions {
    const key = memberKey(userId, deviceId);
    let t = this.tiles.get(key);
    if (t === undefined) {
      const hand = this.tracker ? handOrder(this.tracker.raisedHands.getSnapshot()).get(key) : undefined;
      const shown = this.tracker?.reactions.getSnapshot().get(key);
      t = {
        hand: new ObservableValue<number | undefined>(hand),
        reaction: new ObservableValue<TileReaction | undefined>(shown && this.asTile(shown)),
      };
      this.tiles.set(key, t);
    }
    return t;
  }

  /** Follows the joined call's hands and reactions. */
  attach(tracker: CallReactions): void {
    if (this.scope.ended) return;
    this.tracker = tracker;
    this.scope.subscribe(tracker.raisedHands, (hands) => this.onHands(hands));
    this.scope.subscribe(tracker.reactions, (shown) => this.onReactions(shown));
    this.onHands(tracker.raisedHands.getSnapshot());
    this.onReactions(tracker.reactions.getSnapshot());
    this.available.set(true);
  }

  private asTile(shown: ShownReaction): TileReaction {
    return { emoji: shown.emoji, name: shown.known ? shown.name : "" };
  }

  private onHands(hands: ReadonlyMap<string, RaisedHand>): void {
    const order = handOrder(hands);
    for (const [key, t] of this.tiles) t.hand.set(order.get(key));
    this.handRaised.set(order.has(memberKey(this.own.userId, this.own.deviceId)));
  }

  private onReactions(shown: ReadonlyMap<string, ShownReaction>): void {
    for (const [key, t] of this.tiles) {
      const now = shown.get(key);
      const before = t.reaction.getSnapshot();
      if (now === undefined) t.reaction.set(undefined);
      else if (before?.emoji !== now.emoji || before.name !== (now.known ? now.name : ""))
        t.reaction.set(this.asTile(now));
    }
  }

  private async attempt(action: (tracker: CallReactions) => Promise<unknown>): Promise<void> {
    const tracker = this.tracker;
    if (tracker === undefined) return;
    try {
      await action(tracker);
    } catch (e) {
      this.onError(e instanceof Error ? e.message : String(e));
    }
  }

  toggleHand(): Promise<void> {
    return this.attempt((t) => (t.ownHand() ? t.lowerHand() : t.raiseHand()));
  }

  react(option: ReactionOption): Promise<void> {
    return this.attempt((t) => t.react(option));
  }

  /** Stops following; the call's end releases the tracker itself. */
  dispose(): void {
    this.scope.end();
    this.available.set(false);
  }
}
