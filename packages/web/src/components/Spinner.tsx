/**
 * Spinner: an indeterminate progress indicator with an accessible label
 * (an empty label makes it decorative, for use inside a labelled control).
 */
import styles from "./Spinner.module.css";

export function Spinner({
  size = "md",
  label = "Loading",
}: {
  size?: "sm" | "md" | "lg";
  label?: string;
}): React.JSX.Element {
  return (
    <span
      className={`${styles.spinner} ${styles[size] ?? ""}`}
      role={label === "" ? undefined : "status"}
      aria-label={label === "" ? undefined : label}
      aria-hidden={label === "" ? true : undefined}
    />
  );
}
