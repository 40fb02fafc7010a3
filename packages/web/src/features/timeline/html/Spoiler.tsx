/**
 * A spoiler (span[data-mx-spoiler]): hidden until the reader reveals it with
 * a click or the keyboard; the optional reason is shown beside it, cut to
 * 80 characters and "…" (renderBudget.ts: a long reason froze the page).
 */
import { useState } from "react";
import type { ReactNode } from "react";
import { shownReason } from "./renderBudget";
import styles from "./Spoiler.module.css";

export function Spoiler({ reason, children }: { reason: string; children: ReactNode }): React.JSX.Element {
  const [revealed, setRevealed] = useState(false);
  return (
    <span className={styles.wrapper}>
      {reason !== "" && <span className={styles.reason}>({shownReason(reason)})</span>}
      <span
        role="button"
        tabIndex={revealed ? -1 : 0}
        aria-expanded={revealed}
        aria-label={revealed ? undefined : "Spoiler, activate to reveal"}
        className={revealed ? styles.revealed : styles.hidden}
        onClick={() => setRevealed(true)}
        onKeyDown={(e) => {
          if (e.key === "Enter" || e.key === " ") {
            e.preventDefault();
            setRevealed(true);
          }
        }}
      >
        {children}
      </span>
    </span>
  );
}
