/**
 * The open room's messages as a virtualised list (@tanstack/react-virtual):
 * only the rows near the viewport are in the DOM, heights are measured as
 * rows render, the list anchors to its end (older rows prepended above keep
 * the reader's place; new rows follow when the reader is at the bottom).
 * Scrolling near the top pages back; near the bottom of a window opened in
 * history pages forward. The newest visible event moves the read receipt.
 * Pills jump to the first unread message and back to the latest; the
 * typing line sits under the list.
 */
import { measureElement, useVirtualizer } from "@tanstack/react-virtual";
import type { Virtualizer } from "@tanstack/react-virtual";
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { Spinner } from "../../components/Spinner";
import { useT } from "../../i18n/useT";
import type { TimelineRow, TimelineViewModel } from "../../state/TimelineViewModel";
import { useObservable } from "../../state/useObservable";
import { RowSizes } from "./rowSizes";
import { RowView } from "./RowView";
import styles from "./Timeline.module.css";
import { TimelineContext } from "./TimelineContext";
import type { TimelineCallbacks } from "./TimelineContext";

/** Loads more when the reader is this close to an end (px). */
const EDGE_PX = 800;
/** The space above the first row: the paging spinner or "the beginning of the room". */
const TOP_PX = 56;

export interface TimelineProps extends TimelineCallbacks {
  vm: TimelineViewModel;
}

export function Timeline({ vm, ...callbacks }: TimelineProps): React.JSX.Element {
  const t = useT("timeline");
  const rows = useObservable(vm.rows);
  const loading = useObservable(vm.loading);
  const paginating = useObservable(vm.paginating);
  const atStart = useObservable(vm.atStart);
  const atLiveEnd = useObservable(vm.atLiveEnd);
  const typing = useObservable(vm.typing);
  const error = useObservable(vm.error);
  const scrollRequest = useObservable(vm.scrollRequest);
  const scroller = useRef<HTMLDivElement>(null);
  const [awayFromEnd, setAwayFromEnd] = useState(false);
  const [unreadDismissed, setUnreadDismissed] = useState(false);
  const [sizes] = useState(() => new RowSizes());

  // Stable while the rows are: the virtualiser recomputes every row's offset when getItemKey changes.
  const getItemKey = useCallback((i: number) => rows[i]?.key ?? i, [rows]);
  const estimateSize = useCallback((i: number) => sizes.estimate(rows[i]), [rows, sizes]);
  // Each measured row teaches the estimate of the rows of its shape not measured yet.
  const measure = useCallback(
    (el: Element, entry: ResizeObserverEntry | undefined, v: Virtualizer<HTMLDivElement, Element>) => {
      const size = measureElement(el, entry, v);
      sizes.learn(rows[v.indexFromElement(el)], size, v.scrollRect?.width ?? 0);
      return size;
    },
    [rows, sizes],
  );
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize,
    getItemKey,
    measureElement: measure,
    overscan: 6,
    anchorTo: "end",
    followOnAppend: true,
    scrollEndThreshold: 48,
    paddingStart: TOP_PX,
    paddingEnd: 12,
  });

  // The first rows: start at the bottom (or at the event a link opened). "The bottom" is the
  // virtualiser's end command, not the last row's index: the command settles over several frames,
  // and an older page prepended meanwhile (the first back-page comes at once when the first rows
  // are short of the viewport) shifts every index, so an index would land mid-history. Whether the
  // command is still settling then depends on the renderer's commit timing (React DOM's happens
  // to finish first; Preact's does not), so only the end command is right on both.
  const started = useRef(false);
  useLayoutEffect(() => {
    if (started.current || rows.length === 0 || loading) return;
    started.current = true;
    if (scrollRequest === null) virtualizer.scrollToEnd();
  }, [rows.length, loading, scrollRequest, virtualizer]);

  // A jump: to an event's row, or to the end.
  useEffect(() => {
    if (scrollRequest === null) return;
    if (scrollRequest.eventId === null) {
      virtualizer.scrollToEnd();
      return;
    }
    const index = rows.findIndex(
      (r) =>
        (r.kind === "message" && r.item.eventId === scrollRequest.eventId) ||
        (r.kind === "state" && r.items.some((i) => i.eventId === scrollRequest.eventId)),
    );
    if (index >= 0) virtualizer.scrollToIndex(index, { align: "center" });
    // Rows only matter for where the request lands: a new request (seq) re-runs it.
  }, [scrollRequest, virtualizer]);

  // Still near the top once older rows are in (a short room, or a fast scroll): keep paging.
  useEffect(() => {
    const el = scroller.current;
    if (el === null || !started.current || paginating || atStart || rows.length === 0) return;
    if (el.scrollTop < EDGE_PX && el.scrollHeight > el.clientHeight) void vm.loadOlder();
    else if (el.scrollHeight <= el.clientHeight) void vm.loadOlder();
  }, [rows, paginating, atStart, vm]);

  const unreadIndex = useMemo(() => rows.findIndex((r) => r.kind === "unread"), [rows]);

  // Receipts: the newest event whose row is fully in view, read once scrolling settles (not per frame).
  const latestRows = useRef(rows);
  latestRows.current = rows;
  const receiptTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const scheduleReceipt = useCallback(() => {
    clearTimeout(receiptTimer.current);
    receiptTimer.current = setTimeout(() => {
      const el = scroller.current;
      if (el === null || document.visibilityState !== "visible") return;
      const key = newestFullyVisible(el, virtualizer.getVirtualItems(), latestRows.current);
      if (key !== null) vm.markVisible(key);
    }, 300);
  }, [vm, virtualizer]);
  useEffect(() => scheduleReceipt(), [rows, scheduleReceipt]);
  useEffect(() => () => clearTimeout(receiptTimer.current), []);

  const onScroll = useCallback(() => {
    const el = scroller.current;
    if (el === null) return;
    scheduleReceipt();
    const fromEnd = el.scrollHeight - el.scrollTop - el.clientHeight;
    setAwayFromEnd(fromEnd > 400);
    if (el.scrollTop < EDGE_PX) void vm.loadOlder();
    if (fromEnd < EDGE_PX && !vm.atLiveEnd.getSnapshot()) void vm.loadNewer();
  }, [vm, scheduleReceipt]);

  // Read from the virtualiser (not the DOM: no layout forced while rendering).
  const items = virtualizer.getVirtualItems();
  const offset = virtualizer.scrollOffset ?? 0;
  const firstVisible = items.find((v) => v.end > offset)?.index ?? 0;
  const showUnreadPill =
    !unreadDismissed &&
    vm.fullyRead !== null &&
    ((unreadIndex >= 0 && unreadIndex < firstVisible) ||
      (unreadIndex < 0 &&
        !vm.isShown(vm.fullyRead) &&
        !loading &&
        rows.length > 0 &&
        !atStart &&
        hasUnread(vm)));

  const { onReply, onEdit, onOpenThread, onReport, renderUnder } = callbacks;
  const context = useMemo(
    () => ({ vm, onReply, onEdit, onOpenThread, onReport, renderUnder }),
    [vm, onReply, onEdit, onOpenThread, onReport, renderUnder],
  );

  return (
    <TimelineContext.Provider value={context}>
      <div className={styles.frame}>
        {showUnreadPill && (
          <button
            type="button"
            className={`${styles.pill} ${styles.pillTop}`}
            onClick={() => {
              setUnreadDismissed(true);
              if (unreadIndex >= 0) virtualizer.scrollToIndex(unreadIndex, { align: "start" });
              else void vm.jumpToUnread();
            }}
          >
            ↑ {t("jump_unread")}
          </button>
        )}
        <div ref={scroller} className={styles.scroller} onScroll={onScroll} data-testid="timeline-scroller">
          {loading && rows.length === 0 && (
            <div className={styles.center}>
              <Spinner label={t("loading")} />
            </div>
          )}
          {!loading && rows.length === 0 && error === null && <p className={styles.empty}>{t("empty")}</p>}
          {error !== null && (
            <p className={styles.error} role="alert">
              {error}
            </p>
          )}
          <ol
            className={styles.list}
            aria-label={t("messages")}
            style={{ height: virtualizer.getTotalSize() }}
          >
            <li className={styles.top} style={{ height: TOP_PX }} aria-hidden={!paginating && !atStart}>
              {paginating && <Spinner size="sm" label={t("loading_older")} />}
              {atStart && !paginating && rows.length > 0 && (
                <p className={styles.startOfRoom}>{t("start_of_room")}</p>
              )}
            </li>
            {items.map((v) => {
              const row = rows[v.index];
              if (row === undefined) return null;
              return (
                <li
                  key={v.key}
                  data-index={v.index}
                  ref={virtualizer.measureElement}
                  className={styles.slot}
                  style={{ transform: `translateY(${v.start}px)` }}
                >
                  <RowView row={row} />
                </li>
              );
            })}
          </ol>
        </div>
        {(awayFromEnd || !atLiveEnd) && (
          <button
            type="button"
            className={`${styles.pill} ${styles.pillBottom}`}
            onClick={() => {
              if (atLiveEnd) virtualizer.scrollToEnd();
              else void vm.jumpToLatest();
            }}
          >
            ↓ {t("jump_latest")}
          </button>
        )}
        <div className={styles.typing} aria-live="polite">
          {typing !== null && (
            <>
              <span className={styles.dots} aria-hidden="true">
                <span />
                <span />
                <span />
              </span>
              {typing}
            </>
          )}
        </div>
      </div>
    </TimelineContext.Provider>
  );
}

/** The event of the newest row entirely inside the scroller's view, or null. */
function newestFullyVisible(
  el: HTMLElement,
  items: readonly { index: number; end: number }[],
  rows: readonly TimelineRow[],
): string | null {
  const limit = el.scrollTop + el.clientHeight + 1;
  for (let i = items.length - 1; i >= 0; i--) {
    const v = items[i];
    if (v === undefined || v.end > limit) continue;
    const row = rows[v.index];
    if (row?.kind === "message") return row.item.eventId;
    if (row?.kind === "state") return row.items[row.items.length - 1]?.eventId ?? null;
  }
  return null;
}

function hasUnread(vm: TimelineViewModel): boolean {
  return vm.snapshot.getSnapshot().unread.notificationCount > 0;
}
