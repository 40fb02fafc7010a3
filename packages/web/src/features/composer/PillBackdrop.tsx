/**
 * The composer's mention pills: a layer behind the (transparent) textarea
 * with the same box, font and wrapping, holding the same text in invisible
 * ink, where each mention's label sits in a rounded chip. The chip shows
 * through around the textarea's own glyphs, so the label reads as a pill
 * while the textarea stays the only thing that takes input. Hidden from
 * assistive technology: the textarea already says the text.
 */
import { forwardRef } from "react";
import type { Pill } from "../../state/ComposerViewModel";
import { segmentsOf } from "../../state/composer/pills";
import styles from "./Composer.module.css";

export const PillBackdrop = forwardRef<HTMLDivElement, { text: string; pills: readonly Pill[] }>(
  function PillBackdrop({ text, pills }, ref) {
    if (pills.length === 0) return null;
    return (
      <div ref={ref} className={styles.backdrop} aria-hidden="true" data-testid="composer-pills">
        {segmentsOf(text, pills).map((segment, i) =>
          segment.pill === undefined ? (
            segment.text
          ) : (
            <mark
              key={i}
              className={`${styles.pill} ${segment.pill.target.startsWith("@") ? "" : styles.roomPill}`}
              data-target={segment.pill.target}
            >
              {segment.text}
            </mark>
          ),
        )}
        {/* A trailing newline needs a character after it to take its line, as in the textarea. */}
        {text.endsWith("\n") ? " " : null}
      </div>
    );
  },
);
