/**
 * TextField: a labelled input with an optional hint and error, wired with
 * aria-describedby and aria-invalid so screen readers announce both.
 */
import { useId } from "react";
import type { InputHTMLAttributes } from "react";
import styles from "./TextField.module.css";

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "onChange"> {
  label: string;
  value: string;
  onChange: (value: string) => void;
  hint?: string;
  error?: string | null;
}

export function TextField({
  label,
  value,
  onChange,
  hint,
  error,
  id,
  className,
  ...rest
}: TextFieldProps): React.JSX.Element {
  const auto = useId();
  const inputId = id ?? auto;
  const hintId = hint !== undefined ? `${inputId}-hint` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={`${styles.field} ${className ?? ""}`}>
      <label className={styles.label} htmlFor={inputId}>
        {label}
      </label>
      <input
        {...rest}
        id={inputId}
        className={`${styles.input} ${error ? styles.invalid : ""}`}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      />
      {hint !== undefined && (
        <span id={hintId} className={styles.hint}>
          {hint}
        </span>
      )}
      {error && (
        <span id={errorId} className={styles.error} role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
