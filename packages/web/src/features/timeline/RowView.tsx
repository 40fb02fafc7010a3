/**
 * One row of the timeline by kind, under its date separator when it is
 * the first of a day: the "new messages" line, a state summary (a run of membership changes collapsed, with a
 * button to expand it), a message, or a local echo.
 */
import { memo, useState } from "react";
import { useT } from "../../i18n/useT";
import type { StateRow, TimelineRow } from "../../state/timeline/rows";
import { stateSummary } from "../../state/timeline/summaries";
import { MessageTile } from "./MessageTile";
import { PendingTile } from "./PendingTile";
import { ReadReceipts } from "./ReadReceipts";
import styles from "./Timeline.module.css";
import { useTimeline } from "./TimelineContext";

/** One formatter per shape of label: toLocaleDateString with options builds a new one per call. */
const DAY_LABEL = new Intl.DateTimeFormat(undefined, { weekday: "long", day: "numeric", month: "long" });
const DAY_LABEL_YEAR = new Intl.DateTimeFormat(undefined, {
  weekday: "long",
  day: "numeric",
  month: "long",
  year: "numeric",
});

function dateLabel(ts: number, t: (key: string) => string): string {
  const day = new Date(ts);
  const today = new Date();
  const yesterday = new Date(today.getFullYear(), today.getMonth(), today.getDate() - 1);
  if (day.toDateString() === today.toDateString()) return t("today");
  if (day.toDateString() === yesterday.toDateString()) return t("yesterday");
  return (day.getFullYear() !== today.getFullYear() ? DAY_LABEL_YEAR : DAY_LABEL).format(day);
}

function DateSeparator({ ts }: { ts: number }): React.JSX.Element {
  const t = useT("timeline");
  return (
    <div className={styles.separator} role="separator">
      <time dateTime={new Date(ts).toISOString().slice(0, 10)}>{dateLabel(ts, t)}</time>
    </div>
  );
}

function UnreadLine(): React.JSX.Element {
  const t = useT("timeline");
  return (
    <div className={styles.unreadLine} role="separator" data-testid="unread-marker">
      <span>{t("new_messages")}</span>
    </div>
  );
}

function StateSummary({ row }: { row: StateRow }): React.JSX.Element {
  const t = useT("timeline");
  const { vm } = useTimeline();
  const [open, setOpen] = useState(false);
  const grouped = row.items.length > 1;
  return (
    <div className={styles.state}>
      <div className={styles.stateLine}>
        <span className={styles.stateIcon} aria-hidden="true">
          •
        </span>
        <span className={styles.stateText}>{row.text}</span>
        {grouped && (
          <button type="button" className={styles.expand} aria-expanded={open} onClick={() => setOpen(!open)}>
            {open ? t("collapse") : t("expand")}
          </button>
        )}
      </div>
      {grouped && open && (
        <ul className={styles.stateList}>
          {row.items.map((item) => (
            <li key={item.eventId}>{stateSummary(item, vm.nameOf)}</li>
          ))}
        </ul>
      )}
      <ReadReceipts readers={row.readers} />
    </div>
  );
}

function RowBody({ row }: { row: Exclude<TimelineRow, { kind: "unread" }> }): React.JSX.Element {
  switch (row.kind) {
    case "state":
      return <StateSummary row={row} />;
    case "message":
      return <MessageTile row={row} />;
    case "pending":
      return <PendingTile row={row} />;
  }
}

export const RowView = memo(function RowView({ row }: { row: TimelineRow }): React.JSX.Element {
  if (row.kind === "unread") return <UnreadLine />;
  return (
    <>
      {row.day !== undefined && <DateSeparator ts={row.day} />}
      <RowBody row={row} />
    </>
  );
});
