/**
 * The full reaction picker: the composer's emoji picker (searchable, every
 * emoji, recently used first; its own lazy chunk) opened from a message's
 * react button, floating in a layer on the page so the timeline's scroll box
 * never clips it. On a wide screen it sits by the button, kept inside the
 * viewport; on a phone it is a sheet along the bottom. Picking toggles that
 * reaction (the ones already given show pressed) and closes it; Escape or a
 * click outside closes it; focus goes back to the button.
 */
import { lazy, Suspense, useEffect, useLayoutEffect, useRef, useState } from "react";
import type { CSSProperties } from "react";
import { createPortal } from "react-dom";
import { useT } from "../../i18n/useT";
import { browserStorage } from "../../state/ComposerForRoom";
import { rememberEmoji } from "../../state/composer/emoji";
import type { TimelineItem } from "../../state/TimelineViewModel";
import styles from "./Message.module.css";
import { useTimeline } from "./TimelineContext";

const EmojiPicker = lazy(() => import("../composer/EmojiPicker"));

/** Below this viewport width the picker is a bottom sheet. */
const PHONE_WIDTH = 600;
/** The picker's width and tallest height at desktop size (px; EmojiPicker.module.css: 22rem × 24rem). */
const WIDTH = 352;
const HEIGHT = 384;
const MARGIN = 8;

/** Where the layer goes: by the anchor, inside the viewport; a bottom sheet on a phone. */
function placement(anchor: DOMRect): CSSProperties {
  const { innerWidth: w, innerHeight: h } = window;
  if (w < PHONE_WIDTH) return { left: MARGIN, right: MARGIN, bottom: MARGIN };
  const height = Math.min(HEIGHT, h - 2 * MARGIN);
  const below = anchor.bottom + 4;
  const top = below + height <= h - MARGIN ? below : Math.max(MARGIN, anchor.top - 4 - height);
  const left = Math.max(MARGIN, Math.min(anchor.right - WIDTH, w - WIDTH - MARGIN));
  return { top, left, width: WIDTH };
}

export function ReactionPicker({
  item,
  anchor,
  onClose,
}: {
  item: TimelineItem;
  /** The button that opened it: placed by it, focus returns to it. */
  anchor: HTMLElement | null;
  onClose: () => void;
}): React.JSX.Element {
  const t = useT("timeline");
  const composerT = useT("composer");
  const { vm } = useTimeline();
  const layer = useRef<HTMLDivElement>(null);
  const [style, setStyle] = useState<CSSProperties>({ visibility: "hidden" });

  useLayoutEffect(() => {
    if (anchor !== null) setStyle(placement(anchor.getBoundingClientRect()));
  }, [anchor]);

  const close = (): void => {
    onClose();
    anchor?.focus();
  };

  // A click outside closes it (the picker's own clicks and the opening button's are inside or toggle it).
  useEffect(() => {
    const onDown = (e: PointerEvent): void => {
      const target = e.target as Node;
      if (layer.current?.contains(target) === true || anchor?.contains(target) === true) return;
      onClose();
    };
    document.addEventListener("pointerdown", onDown);
    return () => document.removeEventListener("pointerdown", onDown);
  }, [anchor, onClose]);

  return createPortal(
    <div ref={layer} className={styles.reactionPicker} style={style} data-testid="reaction-picker">
      <Suspense fallback={<div className={styles.reactionPickerLoading}>{composerT("emojiLoading")}</div>}>
        <EmojiPicker
          floating
          label={t("reaction_picker")}
          isSelected={(key) => vm.actions.hasReacted(item, key)}
          onPick={(key) => {
            rememberEmoji(browserStorage(), key);
            vm.actions.toggleReaction(item.eventId, key);
            close();
          }}
          onClose={close}
        />
      </Suspense>
    </div>,
    document.body,
  );
}
