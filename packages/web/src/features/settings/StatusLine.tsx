/** The result line under a settings form: the error (alert) or "Saved." (status). */
import { useT } from "../../i18n/useT";
import type { WriteStatus } from "../../state/settings/status";
import styles from "./Settings.module.css";

export function StatusLine({ status }: { status: WriteStatus }): React.JSX.Element | null {
  const t = useT("settings");
  if (status.error !== null)
    return (
      <p className={styles.error} role="alert">
        {status.error}
      </p>
    );
  if (status.saved)
    return (
      <p className={styles.notice} role="status">
        {t("saved")}
      </p>
    );
  return null;
}
