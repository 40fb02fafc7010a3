/**
 * The room header's Threads button: toggles the thread panel and carries a
 * dot while any thread of the room has unread messages (red for mentions),
 * from the same per-thread counts as the room badge.
 */
import { Button } from "../../components/Button";
import { useT } from "../../i18n/useT";
import type { Subscribable } from "../../state/useObservable";
import { useObservable } from "../../state/useObservable";
import { ThreadIcon } from "../composer/icons";
import styles from "./Threads.module.css";

/** A thread's unread counts, as the button reads them. */
interface ThreadUnreadCounts {
  readonly notificationCount: number;
  readonly highlightCount: number;
}

/** What the button needs of the room view model (the room's snapshots carry the per-thread counts). */
export interface ThreadsButtonHost {
  readonly room: Subscribable<{ readonly threadUnread: ReadonlyMap<string, ThreadUnreadCounts> }>;
  readonly panel: Subscribable<{ kind: string } | null>;
  togglePanel(panel: { kind: "threads" }): void;
}

export function ThreadsButton({ room }: { room: ThreadsButtonHost }): React.JSX.Element {
  const t = useT("threads");
  const snapshot = useObservable(room.room);
  const panel = useObservable(room.panel);
  let unread: "none" | "unread" | "highlight" = "none";
  for (const counts of snapshot.threadUnread.values()) {
    if (counts.highlightCount > 0) unread = "highlight";
    else if (counts.notificationCount > 0 && unread === "none") unread = "unread";
  }
  const open = panel?.kind === "threads" || panel?.kind === "thread";
  return (
    <Button
      variant="ghost"
      size="icon"
      className={styles.headerButton}
      aria-pressed={open}
      aria-label={unread === "none" ? t("title") : `${t("title")} (${t("unread")})`}
      title={t("title")}
      data-testid="threads-button"
      data-unread={unread}
      onClick={() => room.togglePanel({ kind: "threads" })}
    >
      <ThreadIcon />
      {unread !== "none" && <span className={styles.dot} data-kind={unread} aria-hidden="true" />}
    </Button>
  );
}
