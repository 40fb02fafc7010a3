/**
 * Tooltip: a short label shown on hover and on keyboard focus of its
 * trigger, linked with aria-describedby; Escape hides it.
 */
import { useId, useState } from "react";
import type { ReactNode } from "react";
import styles from "./Tooltip.module.css";

export interface TooltipProps {
  label: string;
  children: ReactNode;
  side?: "right" | "bottom";
}

export function Tooltip({ label, children, side = "bottom" }: TooltipProps): React.JSX.Element {
  const [shown, setShown] = useState(false);
  const id = useId();
  return (
    <span
      className={styles.anchor}
      aria-describedby={shown ? id : undefined}
      onMouseEnter={() => setShown(true)}
      onMouseLeave={() => setShown(false)}
      onFocus={() => setShown(true)}
      onBlur={() => setShown(false)}
      onKeyDown={(e) => {
        if (e.key === "Escape") setShown(false);
      }}
    >
      {children}
      {shown && (
        <span id={id} role="tooltip" className={`${styles.tip} ${styles[side] ?? ""}`}>
          {label}
        </span>
      )}
    </span>
  );
}
