/**
 * The dialogs of the message action bar: delete with an optional reason,
 * the event's JSON source, and the edit history (every version from
 * /relations, oldest first).
 */
import { useEffect, useState } from "react";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { Spinner } from "../../components/Spinner";
import { TextField } from "../../components/TextField";
import { useT } from "../../i18n/useT";
import type { TimelineItem } from "../../state/TimelineViewModel";
import type { EditVersion } from "../../state/timeline/TimelineActions";
import styles from "./Message.module.css";
import { useTimeline } from "./TimelineContext";

export type MessageDialogKind = "delete" | "source" | "history";

function DeleteDialog({ item, onClose }: { item: TimelineItem; onClose: () => void }): React.JSX.Element {
  const t = useT("timeline");
  const common = useT("common");
  const { vm } = useTimeline();
  const [reason, setReason] = useState("");
  return (
    <Dialog
      open
      title={t("delete_title")}
      onClose={onClose}
      actions={
        <>
          <Button variant="secondary" onClick={onClose}>
            {common("cancel")}
          </Button>
          <Button
            variant="danger"
            onClick={() => {
              vm.actions.redact(item.eventId, reason.trim());
              onClose();
            }}
          >
            {t("delete_confirm")}
          </Button>
        </>
      }
    >
      <p>{t("delete_body")}</p>
      <TextField label={t("delete_reason")} value={reason} onChange={setReason} />
    </Dialog>
  );
}

function SourceDialog({ item, onClose }: { item: TimelineItem; onClose: () => void }): React.JSX.Element {
  const t = useT("timeline");
  const common = useT("common");
  return (
    <Dialog
      open
      title={t("source_title")}
      onClose={onClose}
      actions={<Button onClick={onClose}>{common("close")}</Button>}
    >
      <pre className={styles.source} tabIndex={0}>
        {JSON.stringify(item.event, null, 2)}
      </pre>
    </Dialog>
  );
}

function HistoryDialog({ item, onClose }: { item: TimelineItem; onClose: () => void }): React.JSX.Element {
  const t = useT("timeline");
  const common = useT("common");
  const { vm } = useTimeline();
  const [versions, setVersions] = useState<EditVersion[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    vm.actions.editHistory(item.eventId).then(
      (v) => live && setVersions(v),
      (err: unknown) => live && setError(err instanceof Error ? err.message : String(err)),
    );
    return () => {
      live = false;
    };
  }, [item.eventId, vm]);
  return (
    <Dialog
      open
      title={t("history_title")}
      onClose={onClose}
      actions={<Button onClick={onClose}>{common("close")}</Button>}
    >
      {error !== null ? (
        <p role="alert">{common("error_generic", { message: error })}</p>
      ) : versions === null ? (
        <Spinner label={t("history_loading")} />
      ) : versions.length === 0 ? (
        <p>{t("history_empty")}</p>
      ) : (
        <ol className={styles.history} data-testid="edit-history">
          {versions.map((v, i) => (
            <li key={v.eventId}>
              <time className={styles.historyTime} dateTime={new Date(v.ts).toISOString()}>
                {i === 0 ? `${t("history_original")} · ` : ""}
                {new Date(v.ts).toLocaleString()}
              </time>
              <span className={styles.historyBody}>{v.body}</span>
            </li>
          ))}
        </ol>
      )}
    </Dialog>
  );
}

export function MessageDialog({
  kind,
  item,
  onClose,
}: {
  kind: MessageDialogKind;
  item: TimelineItem;
  onClose: () => void;
}): React.JSX.Element {
  if (kind === "delete") return <DeleteDialog item={item} onClose={onClose} />;
  if (kind === "source") return <SourceDialog item={item} onClose={onClose} />;
  return <HistoryDialog item={item} onClose={onClose} />;
}
