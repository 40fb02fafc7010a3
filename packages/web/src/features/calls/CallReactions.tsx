/**
 * Raise hand and reactions in the call view (LiveKit calls; part of the
 * lazy call chunk): the controls' hand toggle and reactions picker, and
 * on a member's tile the hand badge (with its place in the order hands
 * went up) and the reaction showing for a few seconds. Every button is
 * labelled; the badge and the reaction are labelled images, and the hand
 * is said in the tile's own label too.
 */
import { useEffect, useRef, useState } from "react";
import { Button } from "../../components/Button";
import { useT } from "../../i18n/useT";
import type { CallReactionsView, TileReactions } from "../../state/calls/reactions";
import type { Subscribable } from "../../state/useObservable";
import { useObservable } from "../../state/useObservable";
import styles from "./CallReactions.module.css";

/** The raised-hand emoji, as the badge and the toggle show it. */
const HAND = "\u{1F590}\u{FE0F}";

const DOWN: Subscribable<undefined> = { getSnapshot: () => undefined, subscribe: () => () => undefined };

/** The tile label's part for a raised hand ("hand raised, 2nd"), or null when down or not offered. */
export function useHandState(reactions: TileReactions | undefined): string | null {
  const t = useT("calls");
  const place = useObservable<number | undefined>(reactions?.hand ?? DOWN);
  return place === undefined ? null : t("handRaisedAt", { n: place });
}

/** The hand badge and the reaction on a member's tile. */
export function TileReactionBadges({ reactions }: { reactions: TileReactions }): React.JSX.Element {
  const t = useT("calls");
  const place = useObservable(reactions.hand);
  const reaction = useObservable(reactions.reaction);
  return (
    <>
      {place !== undefined && (
        <span
          className={styles.hand}
          role="img"
          aria-label={t("handRaisedAt", { n: place })}
          data-testid="tile-hand"
          data-order={place}
        >
          {HAND} {place}
        </span>
      )}
      {reaction !== undefined && (
        <span
          className={styles.reaction}
          role="img"
          aria-label={t("reactedWith", {
            reaction: reaction.name === "" ? reaction.emoji : t(`reaction_${reaction.name}`),
          })}
          data-testid="tile-reaction"
          data-reaction={reaction.name}
        >
          {reaction.emoji}
        </span>
      )}
    </>
  );
}

/** The hand toggle and the reactions button with its picker. */
export function ReactionControls({ reactions }: { reactions: CallReactionsView }): React.JSX.Element {
  const t = useT("calls");
  const available = useObservable(reactions.available);
  const raised = useObservable(reactions.handRaised);
  const [open, setOpen] = useState(false);
  const picker = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (open) picker.current?.querySelector("button")?.focus();
  }, [open]);
  return (
    <div className={styles.wrap}>
      <Button
        variant="secondary"
        size="icon"
        aria-label={raised ? t("lowerHand") : t("raiseHand")}
        title={raised ? t("lowerHand") : t("raiseHand")}
        aria-pressed={raised}
        disabled={!available}
        data-testid="call-raise-hand"
        onClick={() => void reactions.toggleHand()}
      >
        <span aria-hidden="true">{HAND}</span>
      </Button>
      <Button
        variant="secondary"
        size="icon"
        aria-label={t("reactions")}
        title={t("reactions")}
        aria-expanded={open}
        disabled={!available}
        data-testid="call-reactions"
        onClick={() => setOpen(!open)}
      >
        <span aria-hidden="true">🙂</span>
      </Button>
      {open && (
        <div
          ref={picker}
          className={styles.picker}
          role="group"
          aria-label={t("reactions")}
          data-testid="reaction-picker"
          onKeyDown={(e) => {
            if (e.key === "Escape") setOpen(false);
          }}
        >
          {reactions.options.map((option) => (
            <button
              key={option.name}
              type="button"
              className={styles.option}
              aria-label={t(`reaction_${option.name}`)}
              title={t(`reaction_${option.name}`)}
              onClick={() => {
                setOpen(false);
                void reactions.react(option);
              }}
            >
              <span aria-hidden="true">{option.emoji}</span>
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
