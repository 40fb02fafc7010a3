/**
 * The thread summary under a thread root in the timeline: reply count, the
 * last reply (who and what), the participants' avatars and an unread dot,
 * live from the room's threads. A button: it opens the thread. The
 * timeline renders `<ThreadSummary room={roomVm} rootId={eventId} />`
 * under every message; it renders nothing for events without replies.
 */
import { Avatar } from "../../components/Avatar";
import { useT } from "../../i18n/useT";
import { threadsOf } from "../../state/ThreadsViewModel";
import type { ThreadsHost } from "../../state/ThreadsViewModel";
import { useObservable } from "../../state/useObservable";
import styles from "./Threads.module.css";

/** What the summary needs of the room view model. */
export interface ThreadSummaryHost extends ThreadsHost {
  openThread(rootId: string): void;
}

export function ThreadSummary({
  room,
  rootId,
}: {
  room: ThreadSummaryHost;
  rootId: string;
}): React.JSX.Element | null {
  const t = useT("threads");
  const row = useObservable(threadsOf(room).summaryOf(rootId));
  if (row === null) return null;
  const replies = t("replies", { count: row.replyCount });
  return (
    <button
      type="button"
      className={styles.summary}
      data-testid="thread-summary"
      data-unread={row.unread}
      aria-label={`${t("openThread")}: ${replies}${row.unread !== "none" ? `, ${t("unread")}` : ""}`}
      onClick={() => room.openThread(rootId)}
    >
      <span className={styles.faces} aria-hidden="true">
        {row.participants.map((p) => (
          <Avatar key={p.userId} id={p.userId} name={p.name} size={20} />
        ))}
      </span>
      <span className={styles.count}>{replies}</span>
      {row.lastSender !== undefined && (
        <span className={styles.last}>
          <span className={styles.lastName}>{row.lastSender.name}</span> {row.lastPreview}
        </span>
      )}
      {row.unread !== "none" && <span className={styles.dot} data-kind={row.unread} aria-hidden="true" />}
    </button>
  );
}
