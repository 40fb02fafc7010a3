/**
 * Dialog: a modal over the native <dialog> element (focus trap, Escape and
 * the inert background come from the browser), with a title, a body and an
 * action row.
 */
import { useEffect, useId, useRef } from "react";
import type { ReactNode } from "react";
import styles from "./Dialog.module.css";

export interface DialogProps {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  actions?: ReactNode;
  /** A wider dialog (settings with tabs, lists). */
  wide?: boolean;
}

export function Dialog({
  open,
  title,
  onClose,
  children,
  actions,
  wide = false,
}: DialogProps): React.JSX.Element {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const el = ref.current;
    if (el === null) return;
    if (open && !el.open) el.showModal();
    if (!open && el.open) el.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className={`${styles.dialog} ${wide ? styles.wide : ""}`}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId} className={styles.title}>
        {title}
      </h2>
      <div className={styles.body}>{children}</div>
      {actions !== undefined && <div className={styles.actions}>{actions}</div>}
    </dialog>
  );
}
