/**
 * The local echo of a message being sent: the body as written, dimmed,
 * with its status (waiting, encrypting, sending) or, when it failed, the
 * reason and Retry / Cancel buttons wired to the send queue.
 */
import { memo } from "react";
import { Avatar } from "../../components/Avatar";
import { Button } from "../../components/Button";
import { useT } from "../../i18n/useT";
import type { PendingRow } from "../../state/timeline/rows";
import { MessageBody } from "./MessageBody";
import styles from "./Message.module.css";
import { timeOf } from "./MessageTile";
import { useTimeline } from "./TimelineContext";
import { useAvatarUrl } from "./media/useMedia";

export const PendingTile = memo(function PendingTile({ row }: { row: PendingRow }): React.JSX.Element {
  const t = useT("timeline");
  const { vm } = useTimeline();
  const { pending } = row;
  const avatar = useAvatarUrl(row.continued ? undefined : vm.avatarOf(vm.userId));
  const name = vm.nameOf(vm.userId);
  const failed = pending.status === "not_sent";
  const status = failed
    ? t("status_not_sent", { reason: pending.failure?.message ?? "" })
    : t(`status_${pending.status ?? "sent"}`);
  return (
    <article
      className={`${styles.message} ${styles.pending} ${row.continued ? styles.continued : ""} ${failed ? styles.failedEcho : ""}`}
      data-txn-id={pending.txnId}
      data-status={pending.status ?? "sent"}
      aria-label={`${name}, ${status}`}
    >
      <span className={styles.gutter}>
        {row.continued ? (
          <time className={styles.hoverTime}>{timeOf(pending.createdAt)}</time>
        ) : (
          <Avatar id={vm.userId} name={name} url={avatar} size={36} />
        )}
      </span>
      <div className={styles.content}>
        {!row.continued && (
          <div className={styles.header}>
            <span className={styles.sender}>{name}</span>
            <time className={styles.time}>{timeOf(pending.createdAt)}</time>
          </div>
        )}
        <div className={styles.echoBody}>
          <MessageBody
            item={{
              type: pending.type,
              content: pending.content,
              sender: vm.userId,
              redacted: false,
              edited: false,
            }}
            nameOf={vm.nameOf}
          />
        </div>
        <div className={styles.status} role={failed ? "alert" : "status"}>
          {!failed && <span className={styles.statusDot} aria-hidden="true" />}
          <span>{status}</span>
          {failed && (
            <span className={styles.statusActions}>
              <Button size="sm" variant="secondary" onClick={() => vm.actions.resend(pending.txnId)}>
                {t("retry")}
              </Button>
              <Button size="sm" variant="ghost" onClick={() => vm.actions.cancel(pending.txnId)}>
                {t("cancel_send")}
              </Button>
            </span>
          )}
        </div>
      </div>
    </article>
  );
});
