/**
 * Badge: an unread count, accent for plain unread and red for highlights
 * (mentions, keywords); a dot when there is activity without a count.
 */
import styles from "./Badge.module.css";

export interface BadgeProps {
  count: number;
  highlight?: boolean;
  /** What a screen reader hears, e.g. "3 unread messages". */
  label: string;
}

export function Badge({ count, highlight = false, label }: BadgeProps): React.JSX.Element | null {
  if (count <= 0) return null;
  const text = count > 99 ? "99+" : String(count);
  return (
    <span className={`${styles.badge} ${highlight ? styles.highlight : ""}`} aria-label={label} role="status">
      {text}
    </span>
  );
}
