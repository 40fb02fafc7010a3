/**
 * The thread list panel: all threads or the user's, unread first, each row
 * the root (who, what), the reply count, the last reply and an unread dot;
 * paged from the server with "Load more"; empty and error states.
 */
import { useEffect } from "react";
import { Avatar } from "../../components/Avatar";
import { Button } from "../../components/Button";
import { Spinner } from "../../components/Spinner";
import { useT } from "../../i18n/useT";
import type { ThreadsViewModel } from "../../state/ThreadsViewModel";
import { useObservable } from "../../state/useObservable";
import styles from "./Threads.module.css";

export function ThreadList({
  vm,
  onOpen,
}: {
  vm: ThreadsViewModel;
  onOpen: (rootId: string) => void;
}): React.JSX.Element {
  const t = useT("threads");
  const rows = useObservable(vm.rows);
  const include = useObservable(vm.include);
  const loading = useObservable(vm.loading);
  const error = useObservable(vm.error);
  const hasMore = useObservable(vm.hasMore);

  useEffect(() => {
    vm.open();
  }, [vm]);

  return (
    <div className={styles.panel}>
      <h3 className={styles.heading}>{t("title")}</h3>
      <div className={styles.filter} role="radiogroup" aria-label={t("filter")}>
        {(["all", "participated"] as const).map((value) => (
          <button
            key={value}
            type="button"
            role="radio"
            aria-checked={include === value}
            className={styles.filterButton}
            onClick={() => vm.setInclude(value)}
          >
            {t(value === "all" ? "all" : "mine")}
          </button>
        ))}
      </div>
      {error !== null && (
        <p className={styles.error} role="alert">
          {t("error", { message: error })}
        </p>
      )}
      {rows.length === 0 && !loading && error === null ? (
        <div className={styles.empty}>
          <span className={styles.emptyIcon} aria-hidden="true">
            🧵
          </span>
          <p>{t(include === "all" ? "empty" : "emptyMine")}</p>
          {include === "all" && <p className={styles.muted}>{t("emptyHint")}</p>}
        </div>
      ) : (
        <ul className={styles.list} aria-label={t("title")}>
          {rows.map((row) => (
            <li key={row.rootId}>
              <button
                type="button"
                className={styles.row}
                data-unread={row.unread}
                data-testid="thread-row"
                onClick={() => onOpen(row.rootId)}
              >
                <Avatar id={row.root?.userId ?? row.rootId} name={row.root?.name ?? "?"} size={32} />
                <span className={styles.rowText}>
                  <span className={styles.rowTop}>
                    <strong>{row.root?.name ?? t("thread")}</strong>
                    {row.unread !== "none" && (
                      <span
                        className={styles.dot}
                        data-kind={row.unread}
                        aria-label={t(row.unread === "highlight" ? "unreadMentions" : "unread")}
                      />
                    )}
                  </span>
                  <span className={styles.preview}>{row.rootPreview || t("rootMissing")}</span>
                  <span className={styles.meta}>
                    {t("replies", { count: row.replyCount })}
                    {row.lastSender !== undefined && ` · ${t("lastReply", { name: row.lastSender.name })}`}
                  </span>
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {loading && <Spinner size="sm" label={t("loading")} />}
      {hasMore && !loading && rows.length > 0 && (
        <Button variant="secondary" size="sm" onClick={() => void vm.loadMore()}>
          {t("loadMore")}
        </Button>
      )}
    </div>
  );
}
