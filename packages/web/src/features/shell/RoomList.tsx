/**
 * The room list: a search box (Ctrl+K from anywhere), section filters, and
 * the rooms as a listbox (WAI-ARIA listbox pattern: ArrowUp, ArrowDown,
 * Home and End move the active option, aria-activedescendant, while focus
 * stays in the list; Enter or a click opens the room, which is the only
 * thing that marks it read; aria-selected is the open room). The search box
 * is a combobox over the same list: arrows move in the filtered list, Enter
 * opens. Each row shows the
 * avatar, name, last message and the unread and highlight badges (thread
 * counts included). Until the first sync has answered, an empty list shows
 * skeleton rows (aria-busy), not "No rooms here yet.". Beside the search, the "+" menu (create, chat, join,
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
import { roomAvatarSeedOf } from "../../state/avatarColour";
import { roomBadge } from "../../state/badges";
import type { RoomListItem, RoomListViewModel } from "../../state/RoomListViewModel";
import { SECTIONS } from "../../state/RoomListViewModel";
import { useObservable } from "../../state/useObservable";
import { AddMenu } from "../rooms/AddMenu";
import { RoomOptionsButton, RoomOptionsMenu } from "../rooms/RoomOptionsMenu";
import { roomPreviewOf } from "../timeline/preview";
import styles from "./RoomList.module.css";

/** The second line of a row: the invite, the last message, or else the topic. */
function previewLine(room: RoomListItem, invited: string): string {
  if (room.category === "invite") return invited;
  return roomPreviewOf(room, (id) => room.members.get(id)?.name ?? id);
}

function countsOf(room: RoomListItem): { count: number; highlight: boolean } {
  const badge = roomBadge(room);
  return { count: badge.count, highlight: badge.level === "highlight" };
}

/** A row's height before it is measured (36 px avatar + padding). */
const ROW_ESTIMATE_PX = 52;

interface RowProps {
  room: RoomListItem;
  list: RoomListViewModel;
  selected: boolean;
  active: boolean;
  index: number;
  setSize: number;
  measure: (el: Element | null) => void;
}

/** One room row (memoised: a sync batch re-renders only the rows it changed). */
const RoomRow = memo(function RoomRow({ room, list, selected, active, index, setSize, measure }: RowProps) {
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
      className={`${styles.room} ${selected ? styles.selected : ""} ${active ? styles.active : ""} ${count > 0 ? styles.unread : ""}`}
      onClick={() => list.select(room.roomId)}
    >
      <Avatar id={roomAvatarSeedOf(room, list.userId)} name={room.name.name} size={36} />
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
  useObservable(list.active);
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
  // The active option, only when it is in the list shown (a search may filter it out).
  const active = list.activeInList();
  const activeId = active !== null ? `room-${cssId(active)}` : undefined;

  // A new active option (keyboard, or a room opened elsewhere) scrolls into view; a sync batch moving rows does not.
  useEffect(() => {
    const at = roomsRef.current.findIndex((r) => r.roomId === active);
    if (at >= 0) virtualizer.scrollToIndex(at, { align: "auto" });
  }, [active, virtualizer]);

  /** The listbox keys, shared by the list and the search box; true when handled. */
  const onListKey = (key: string): boolean => {
    if (key === "ArrowDown" || key === "ArrowUp") list.move(key === "ArrowDown" ? 1 : -1);
    else if (key === "Home" || key === "End") list.moveToEdge(key === "Home" ? "first" : "last");
    else if (key === "Enter") list.openActive();
    else return false;
    return true;
  };

  const items = virtualizer.getVirtualItems();
  // A phone has no Ctrl+K to advertise; the first sync shows skeleton rows, not "No rooms here yet."
  const narrow = typeof matchMedia === "function" && matchMedia(NARROW_QUERY).matches;
  const loading = useObservable(list.loading) && rooms.length === 0 && search === "";
  const before = items[0]?.start ?? 0;
  const after = Math.max(0, virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0));

  return (
    <div className={styles.panel}>
      <div className={styles.searchRow}>
        <input
          ref={searchRef}
          className={styles.search}
          type="search"
          role="combobox"
          aria-expanded={true}
          aria-autocomplete="list"
          aria-controls={LIST_ID}
          aria-activedescendant={activeId}
          placeholder={t(narrow ? "search_placeholder_touch" : "search_placeholder")}
          aria-label={t("search_label")}
          value={search}
          onChange={(e) => list.setSearch(e.target.value)}
          onKeyDown={(e) => {
            // Home and End stay with the text field; arrows and Enter act on the filtered list.
            if (e.key !== "Home" && e.key !== "End" && onListKey(e.key)) e.preventDefault();
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
        id={LIST_ID}
        className={styles.list}
        role="listbox"
        aria-label={t("rooms")}
        tabIndex={0}
        aria-activedescendant={activeId}
        aria-busy={loading}
        onKeyDown={(e) => {
          if (e.target !== e.currentTarget) return; // a row's options button handles its own keys
          if (onListKey(e.key === " " ? "Enter" : e.key)) e.preventDefault();
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
              active={room.roomId === active}
              index={item.index}
              setSize={rooms.length}
              measure={virtualizer.measureElement}
            />
          );
        })}
        {after > 0 && <li role="none" aria-hidden="true" style={{ height: after }} />}
        {loading && <SkeletonRows label={t("loading_rooms")} />}
        {rooms.length === 0 && !loading && (
          <li className={styles.empty}>{search !== "" ? t("no_match") : t("empty")}</li>
        )}
      </ul>
    </div>
  );
});

/** The phone layout's width (the shell's CSS breakpoint) or a touch screen. */
const NARROW_QUERY = "(max-width: 720px), (pointer: coarse)";

/** Grey rows in the shape of rooms while the first sync brings the list in. */
function SkeletonRows({ label }: { label: string }): React.JSX.Element {
  return (
    <>
      <li role="none" className="visually-hidden" aria-live="polite">
        {label}
      </li>
      {[0, 1, 2, 3, 4, 5].map((i) => (
        <li key={i} role="none" aria-hidden="true" className={styles.skeleton} data-testid="room-skeleton">
          <span className={styles.skeletonAvatar} />
          <span className={styles.skeletonText}>
            <span className={styles.skeletonLine} />
            <span className={`${styles.skeletonLine} ${styles.skeletonShort}`} />
          </span>
        </li>
      ))}
    </>
  );
}

/** The listbox's element id (the search combobox controls it). */
const LIST_ID = "room-list";

/** An element id from a room id (room ids contain ! and :). */
function cssId(roomId: string): string {
  return roomId.replace(/[^A-Za-z0-9_-]/g, (c) => `_${c.charCodeAt(0).toString(16)}`);
}
