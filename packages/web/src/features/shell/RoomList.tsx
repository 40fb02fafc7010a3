/**
 * The room list: a search box (Ctrl+K from anywhere), section filters, and
 * the rooms as a listbox navigable with the arrow keys; each row shows the
 * avatar, name, last message and the unread and highlight badges (thread
 * counts included). Beside the search, the "+" menu (create, chat, join,
 * explore). The list is virtualised (@tanstack/react-virtual): only the
 * rows in view (and a few around) are in the DOM, between two spacers, so
 * 3,000 rooms cost what 20 do; each option carries aria-setsize and
 * aria-posinset, and a keyboard move scrolls the selection into view.
 */
import { forwardRef, memo, useCallback, useEffect, useRef } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import { Avatar } from "../../components/Avatar";
import { Badge } from "../../components/Badge";
import { useT } from "../../i18n/useT";
import type { RoomListViewModel } from "../../state/RoomListViewModel";
import { SECTIONS } from "../../state/RoomListViewModel";
import { useObservable } from "../../state/useObservable";
import { AddMenu } from "../rooms/AddMenu";
import { RoomOptionsButton, RoomOptionsMenu } from "../rooms/RoomOptionsMenu";
import { cutAt } from "../timeline/html/renderBudget";
import { PREVIEW_MAX_CHARS, previewOf } from "../timeline/preview";
import styles from "./RoomList.module.css";

type Snapshot = ReturnType<RoomListViewModel["items"]["getSnapshot"]>[number];

/** The second line of a row: the invite, the last message, or else the topic. */
function previewLine(room: Snapshot, invited: string): string {
  if (room.category === "invite") return invited;
  const nameOf = (id: string): string => room.members.get(id)?.name ?? id;
  const latest = room.latestEvent !== undefined ? previewOf(room.latestEvent, nameOf) : null;
  if (latest !== null) return latest;
  const topic = room.state.content("m.room.topic")?.["topic"];
  return typeof topic === "string" ? cutAt(topic, PREVIEW_MAX_CHARS) : "";
}

function countsOf(room: Snapshot): { count: number; highlight: boolean } {
  let count = room.unread.notificationCount;
  let highlights = room.unread.highlightCount;
  for (const t of room.threadUnread.values()) {
    count += t.notificationCount;
    highlights += t.highlightCount;
  }
  return { count: Math.max(count, highlights), highlight: highlights > 0 };
}

/** A row's height before it is measured (36 px avatar + padding). */
const ROW_ESTIMATE_PX = 52;

interface RowProps {
  room: Snapshot;
  list: RoomListViewModel;
  selected: boolean;
  index: number;
  setSize: number;
  measure: (el: Element | null) => void;
}

/** One room row (memoised: a sync batch re-renders only the rows it changed). */
const RoomRow = memo(function RoomRow({ room, list, selected, index, setSize, measure }: RowProps) {
  const t = useT("shell");
  const { count, highlight } = countsOf(room);
  return (
    <li
      ref={measure}
      data-index={index}
      id={`room-${cssId(room.roomId)}`}
      role="option"
      aria-selected={selected}
      aria-setsize={setSize}
      aria-posinset={index + 1}
      className={`${styles.room} ${selected ? styles.selected : ""} ${count > 0 ? styles.unread : ""}`}
      onClick={() => list.select(room.roomId)}
    >
      <Avatar id={room.roomId} name={room.name.name} size={36} />
      <span className={styles.text}>
        <span className={styles.name}>{room.name.name}</span>
        <span className={styles.preview}>{previewLine(room, t("invited"))}</span>
      </span>
      <Badge
        count={count}
        highlight={highlight}
        label={count > 0 ? t(highlight ? "badge_unread_mentions" : "badge_unread", { count }) : ""}
      />
      <RoomOptionsButton list={list} roomId={room.roomId} name={room.name.name} />
    </li>
  );
});

export const RoomList = forwardRef<HTMLInputElement, { list: RoomListViewModel }>(function RoomList(
  { list },
  searchRef,
) {
  const t = useT("shell");
  const rooms = useObservable(list.items);
  const selected = useObservable(list.selected);
  const section = useObservable(list.section);
  const search = useObservable(list.search);
  const listRef = useRef<HTMLUListElement>(null);
  const virtualizer = useVirtualizer({
    count: rooms.length,
    getScrollElement: () => listRef.current,
    estimateSize: () => ROW_ESTIMATE_PX,
    getItemKey: useCallback((i: number) => rooms[i]?.roomId ?? i, [rooms]),
    overscan: 8,
  });
  const roomsRef = useRef(rooms);
  roomsRef.current = rooms;

  // A new selection (keyboard or elsewhere) scrolls into view; a sync batch moving rows does not scroll.
  useEffect(() => {
    const at = roomsRef.current.findIndex((r) => r.roomId === selected);
    if (at >= 0) virtualizer.scrollToIndex(at, { align: "auto" });
  }, [selected, virtualizer]);

  const items = virtualizer.getVirtualItems();
  const before = items[0]?.start ?? 0;
  const after = Math.max(0, virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0));

  return (
    <div className={styles.panel}>
      <div className={styles.searchRow}>
        <input
          ref={searchRef}
          className={styles.search}
          type="search"
          placeholder={t("search_placeholder")}
          aria-label={t("search_label")}
          value={search}
          onChange={(e) => list.setSearch(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "ArrowDown") {
              e.preventDefault();
              listRef.current?.focus();
              list.move(1);
            }
          }}
        />
        <AddMenu list={list} />
      </div>
      <RoomOptionsMenu list={list} />
      <div className={styles.sections} role="toolbar" aria-label={t("filters")}>
        {SECTIONS.map((s) => (
          <button
            key={s.id}
            type="button"
            className={`${styles.chip} ${section === s.id ? styles.chipOn : ""}`}
            aria-pressed={section === s.id}
            onClick={() => list.setSection(s.id)}
          >
            {t(`section_${s.id}`)}
          </button>
        ))}
      </div>
      <ul
        ref={listRef}
        className={styles.list}
        role="listbox"
        aria-label={t("rooms")}
        tabIndex={0}
        aria-activedescendant={selected !== null ? `room-${cssId(selected)}` : undefined}
        onKeyDown={(e) => {
          if (e.key === "ArrowDown" || e.key === "ArrowUp") {
            e.preventDefault();
            list.move(e.key === "ArrowDown" ? 1 : -1);
          }
        }}
      >
        {before > 0 && <li role="none" aria-hidden="true" style={{ height: before }} />}
        {items.map((item) => {
          const room = rooms[item.index];
          if (room === undefined) return null;
          return (
            <RoomRow
              key={room.roomId}
              room={room}
              list={list}
              selected={room.roomId === selected}
              index={item.index}
              setSize={rooms.length}
              measure={virtualizer.measureElement}
            />
          );
        })}
        {after > 0 && <li role="none" aria-hidden="true" style={{ height: after }} />}
        {rooms.length === 0 && <li className={styles.empty}>{search !== "" ? t("no_match") : t("empty")}</li>}
      </ul>
    </div>
  );
});

/** An element id from a room id (room ids contain ! and :). */
function cssId(roomId: string): string {
  return roomId.replace(/[^A-Za-z0-9_-]/g, (c) => `_${c.charCodeAt(0).toString(16)}`);
}
