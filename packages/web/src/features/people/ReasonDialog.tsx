/**
 * A confirmation with an optional reason (kick, ban): the reason goes into
 * the membership event, where the affected user and the room can read it.
 */
import { useState } from "react";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { useT } from "../../i18n/useT";
import styles from "./People.module.css";

export interface ReasonDialogProps {
  title: string;
  confirm: string;
  busy: boolean;
  onClose: () => void;
  onConfirm: (reason: string) => Promise<void>;
}

export function ReasonDialog({
  title,
  confirm,
  busy,
  onClose,
  onConfirm,
}: ReasonDialogProps): React.JSX.Element {
  const t = useT("people");
  const common = useT("common");
  const [reason, setReason] = useState("");
  return (
    <Dialog
      open
      title={title}
      onClose={onClose}
      actions={
        <>
          <Button variant="secondary" onClick={onClose}>
            {common("cancel")}
          </Button>
          <Button variant="danger" busy={busy} onClick={() => void onConfirm(reason)}>
            {confirm}
          </Button>
        </>
      }
    >
      <label className={styles.label}>
        {t("reason")}
        <textarea
          className={styles.textarea}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          autoFocus
        />
      </label>
    </Dialog>
  );
}
