/**
 * The "report message" dialog the timeline's action bar opens (through
 * RoomViewModel.report): a reason and how offensive the message is (the
 * score, -100 worst to 0), sent to the server's admins.
 */
import { useState } from "react";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { useT } from "../../i18n/useT";
import type { ReportViewModel } from "../../state/room-settings/ReportViewModel";
import { useObservable } from "../../state/useObservable";
import styles from "./RoomSettings.module.css";

export function ReportDialog({ report }: { report: ReportViewModel }): React.JSX.Element | null {
  const t = useT("roomSettings");
  const common = useT("common");
  const target = useObservable(report.target);
  const [reason, setReason] = useState("");
  const [severity, setSeverity] = useState(50);
  if (target === null) return null;
  const close = (): void => {
    setReason("");
    report.close();
  };
  return (
    <Dialog
      open
      title={t("report_title")}
      onClose={close}
      actions={
        target.sent !== null ? (
          <Button onClick={close}>{common("close")}</Button>
        ) : (
          <>
            <Button variant="secondary" onClick={close}>
              {common("cancel")}
            </Button>
            <Button variant="danger" busy={target.busy} onClick={() => void report.submit(reason, -severity)}>
              {t("report_submit")}
            </Button>
          </>
        )
      }
    >
      {target.sent !== null ? (
        <p className={styles.notice} role="status">
          {target.sent}
        </p>
      ) : (
        <>
          <label className={styles.label}>
            {t("report_reason")}
            <textarea
              className={styles.textarea}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              autoFocus
            />
          </label>
          <label className={styles.label}>
            {t("report_score")}
            <input
              type="range"
              min={0}
              max={100}
              step={10}
              value={severity}
              onChange={(e) => setSeverity(Number(e.target.value))}
            />
            <span className={styles.row}>
              <span className={styles.hint}>{t("report_score_mild")}</span>
              <span className={styles.grow} />
              <span className={styles.hint}>{t("report_score_severe")}</span>
            </span>
          </label>
          {target.error !== null && (
            <p className={styles.error} role="alert">
              {target.error}
            </p>
          )}
        </>
      )}
    </Dialog>
  );
}
