/**
 * The room list: a search box (Ctrl+K from anywhere), section filters, and
 * the rooms as a listbox navigable with the arrow keys; each row shows the
 * avatar, name, last message and the unread and highlight badges (thread
 * counts included). Beside the search, the "+" menu (create, chat, join,
 * explore).
 */
import { forwardRef, useEffect, useRef } from "react";
import { Avatar } from "../../components/Avatar";
import { Badge } from "../../components/Badge";
import type { RoomListViewModel } from "../../state/RoomListViewModel";
import { SECTIONS } from "../../state/RoomListViewModel";
import { useObservable } from "../../state/useObservable";
import { AddMenu } from "../rooms/AddMenu";
import { RoomOptionsButton, RoomOptionsMenu } from "../rooms/RoomOptionsMenu";
import { previewOf } from "../timeline/preview";
import styles from "./RoomList.module.css";

type Snapshot = ReturnType<RoomListViewModel["items"]["getSnapshot"]>[number];

/** The second line of a row: the invite, the last message, or else the topic. */
function previewLine(room: Snapshot): string {
  if (room.category === "invite") return "Invited";
  const nameOf = (id: string): string => room.members.get(id)?.name ?? id;
  const latest = room.latestEvent !== undefined ? previewOf(room.latestEvent, nameOf) : null;
  if (latest !== null) return latest;
  const topic = room.state.content("m.room.topic")?.["topic"];
  return typeof topic === "string" ? topic : "";
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

export const RoomList = forwardRef<HTMLInputElement, { list: RoomListViewModel }>(function RoomList(
  { list },
  searchRef,
) {
  const rooms = useObservable(list.items);
  const selected = useObservable(list.selected);
  const section = useObservable(list.section);
  const search = useObservable(list.search);
  const listRef = useRef<HTMLUListElement>(null);

  useEffect(() => {
    listRef.current?.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: "nearest" });
  }, [selected]);

  return (
    <div className={styles.panel}>
      <div className={styles.searchRow}>
        <input
          ref={searchRef}
          className={styles.search}
          type="search"
          placeholder="Search rooms (Ctrl+K)"
          aria-label="Search rooms"
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
      <div className={styles.sections} role="toolbar" aria-label="Room filters">
        {SECTIONS.map((s) => (
          <button
            key={s.id}
            type="button"
            className={`${styles.chip} ${section === s.id ? styles.chipOn : ""}`}
            aria-pressed={section === s.id}
            onClick={() => list.setSection(s.id)}
          >
            {s.label}
          </button>
        ))}
      </div>
      <ul
        ref={listRef}
        className={styles.list}
        role="listbox"
        aria-label="Rooms"
        tabIndex={0}
        aria-activedescendant={selected !== null ? `room-${cssId(selected)}` : undefined}
        onKeyDown={(e) => {
          if (e.key === "ArrowDown" || e.key === "ArrowUp") {
            e.preventDefault();
            list.move(e.key === "ArrowDown" ? 1 : -1);
          }
        }}
      >
        {rooms.map((room) => {
          const { count, highlight } = countsOf(room);
          return (
            <li
              key={room.roomId}
              id={`room-${cssId(room.roomId)}`}
              role="option"
              aria-selected={room.roomId === selected}
              className={`${styles.room} ${room.roomId === selected ? styles.selected : ""} ${count > 0 ? styles.unread : ""}`}
              onClick={() => list.select(room.roomId)}
            >
              <Avatar id={room.roomId} name={room.name.name} size={36} />
              <span className={styles.text}>
                <span className={styles.name}>{room.name.name}</span>
                <span className={styles.preview}>{previewLine(room)}</span>
              </span>
              <Badge
                count={count}
                highlight={highlight}
                label={`${count} unread${highlight ? ", mentions you" : ""}`}
              />
              <RoomOptionsButton list={list} roomId={room.roomId} name={room.name.name} />
            </li>
          );
        })}
        {rooms.length === 0 && (
          <li className={styles.empty}>
            {search !== "" ? "No rooms match your search." : "No rooms here yet."}
          </li>
        )}
      </ul>
    </div>
  );
});

/** An element id from a room id (room ids contain ! and :). */
function cssId(roomId: string): string {
  return roomId.replace(/[^A-Za-z0-9_-]/g, (c) => `_${c.charCodeAt(0).toString(16)}`);
}
