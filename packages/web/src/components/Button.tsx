/**
 * Button: the one button of the app, in four variants (primary, secondary,
 * ghost, danger) and two sizes, with a busy state that keeps its width.
 */
import type { ButtonHTMLAttributes } from "react";
import styles from "./Button.module.css";
import { Spinner } from "./Spinner";

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: "primary" | "secondary" | "ghost" | "danger";
  /** "icon": a 2rem square for a button whose content is one icon (it carries an aria-label). */
  size?: "md" | "sm" | "icon";
  /** Shows a spinner and disables the button while an action runs. */
  busy?: boolean;
  wide?: boolean;
}

export function Button({
  variant = "primary",
  size = "md",
  busy = false,
  wide = false,
  className,
  children,
  disabled,
  type = "button",
  ...rest
}: ButtonProps): React.JSX.Element {
  const classes = [styles.button, styles[variant], styles[size], wide ? styles.wide : "", className ?? ""];
  return (
    <button
      {...rest}
      type={type}
      className={classes.filter(Boolean).join(" ")}
      disabled={disabled === true || busy}
      aria-busy={busy || undefined}
    >
      {busy && <Spinner size="sm" label="" />}
      <span className={styles.label}>{children}</span>
    </button>
  );
}
