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
  // Not a live region: a list of rooms would announce every count change.
  return (
    <span className={`${styles.badge} ${highlight ? styles.highlight : ""}`}>
      <span aria-hidden="true">{text}</span>
      <span className="visually-hidden">{label}</span>
    </span>
  );
}
