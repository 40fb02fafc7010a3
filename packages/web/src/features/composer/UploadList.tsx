/**
 * Uploads in flight under the composer: a progress bar per file (the SDK's
 * upload progress), cancel while uploading, retry or dismiss after a failure.
 */
import { Button } from "../../components/Button";
import { useT } from "../../i18n/useT";
import type { ComposerUploads } from "../../state/ComposerUploads";
import { useObservable } from "../../state/useObservable";
import styles from "./Composer.module.css";

export function UploadList({ uploads }: { uploads: ComposerUploads }): React.JSX.Element | null {
  const t = useT("composer");
  const common = useT("common");
  const list = useObservable(uploads.list);
  if (list.length === 0) return null;
  return (
    <ul className={styles.uploads} aria-label={t("attach")}>
      {list.map((u) => (
        <li key={u.id} className={styles.upload} data-status={u.status}>
          {u.status === "uploading" ? (
            <>
              <span className={styles.uploadName}>{t("uploading", { name: u.name })}</span>
              <progress
                className={styles.progress}
                max={Math.max(u.total, 1)}
                value={u.loaded}
                aria-label={t("uploading", { name: u.name })}
              />
              <Button
                variant="ghost"
                size="sm"
                onClick={() => uploads.cancel(u.id)}
                aria-label={t("cancelUpload")}
              >
                ✕
              </Button>
            </>
          ) : (
            <>
              <span className={styles.uploadError} role="alert">
                {t("uploadFailed", { name: u.name, message: u.error ?? "" })}
              </span>
              <Button variant="secondary" size="sm" onClick={() => void uploads.retry(u.id)}>
                {common("retry")}
              </Button>
              <Button variant="ghost" size="sm" onClick={() => uploads.cancel(u.id)}>
                {t("dismiss")}
              </Button>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}
