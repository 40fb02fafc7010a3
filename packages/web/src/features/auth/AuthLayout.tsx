/**
 * The frame of the sign-in, registration and soft-logout screens: the brand
 * beside (wide screens) or above (phones) a centred card, and the theme
 * toggle in the corner.
 */
import type { ReactNode } from "react";
import { ThemeToggle } from "../shell/ThemeToggle";
import type { ThemeViewModel } from "../../state/ThemeViewModel";
import styles from "./AuthLayout.module.css";

export function AuthLayout({
  title,
  subtitle,
  theme,
  children,
}: {
  title: string;
  subtitle?: string;
  theme: ThemeViewModel;
  children: ReactNode;
}): React.JSX.Element {
  return (
    <div className={styles.page}>
      <div className={styles.corner}>
        <ThemeToggle theme={theme} />
      </div>
      <main className={styles.card}>
        <div className={styles.brand}>
          <svg className={styles.logo} viewBox="0 0 32 32" aria-hidden="true">
            <path d="M6 6h6v14h14v6H6z" fill="currentColor" />
            <path d="M16 6h10v10h-4v-6h-6z" fill="currentColor" opacity="0.55" />
          </svg>
          <span className={styles.wordmark}>Lattice</span>
        </div>
        <h1 className={styles.title}>{title}</h1>
        {subtitle !== undefined && <p className={styles.subtitle}>{subtitle}</p>}
        {children}
      </main>
    </div>
  );
}
