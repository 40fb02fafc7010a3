/**
 * Banner: a full-width notice (info, warning, error, success) with an
 * optional action; errors and warnings are announced politely.
 */
import type { ReactNode } from "react";
import styles from "./Banner.module.css";

export interface BannerProps {
  tone?: "info" | "warning" | "error" | "success";
  children: ReactNode;
  action?: ReactNode;
}

export function Banner({ tone = "info", children, action }: BannerProps): React.JSX.Element {
  return (
    <div className={`${styles.banner} ${styles[tone] ?? ""}`} role={tone === "error" ? "alert" : "status"}>
      <span className={styles.text}>{children}</span>
      {action !== undefined && <span className={styles.action}>{action}</span>}
    </div>
  );
}
