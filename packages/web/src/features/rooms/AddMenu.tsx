/**
 * The "+" menu of the room list header: new room, start a chat, join by
 * address or link, explore public rooms. A menu button (arrow keys move
 * between items, Escape closes and returns focus) that opens the dialogs;
 * a created, joined or opened room is selected once sync brings it in.
 */
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { Button } from "../../components/Button";
import { useT } from "../../i18n/useT";
import type { RoomListViewModel } from "../../state/RoomListViewModel";
import type { DirectoryViewModel } from "../../state/rooms/DirectoryViewModel";
import styles from "./Rooms.module.css";

// The dialogs load with their first use: they are not part of the first screen's JavaScript.
const CreateRoomDialog = lazy(() =>
  import("./CreateRoomDialog").then((m) => ({ default: m.CreateRoomDialog })),
);
const StartDmDialog = lazy(() => import("./StartDmDialog").then((m) => ({ default: m.StartDmDialog })));
const JoinRoomDialog = lazy(() => import("./JoinRoomDialog").then((m) => ({ default: m.JoinRoomDialog })));
const DirectoryDialog = lazy(() => import("./DirectoryDialog").then((m) => ({ default: m.DirectoryDialog })));

type Open = { kind: "create" | "dm" | "join" } | { kind: "directory"; vm: DirectoryViewModel } | null;

const ITEMS = ["create", "dm", "join", "directory"] as const;

export function AddMenu({ list }: { list: RoomListViewModel }): React.JSX.Element | null {
  const t = useT("rooms");
  const [menu, setMenu] = useState(false);
  const [open, setOpen] = useState<Open>(null);
  const anchor = useRef<HTMLDivElement>(null);
  const items = useRef<HTMLUListElement>(null);
  const actions = list.actions;

  useEffect(() => {
    if (!menu) return;
    items.current?.querySelector("button")?.focus();
    const close = (e: MouseEvent): void => {
      if (!anchor.current?.contains(e.target as Node)) setMenu(false);
    };
    document.addEventListener("mousedown", close);
    return () => document.removeEventListener("mousedown", close);
  }, [menu]);

  if (actions === null) return null;

  const choose = (kind: (typeof ITEMS)[number]): void => {
    setMenu(false);
    setOpen(kind === "directory" ? { kind, vm: actions.openDirectory() } : { kind });
  };
  const done = (roomId: string): void => {
    setOpen(null);
    list.selectWhenJoined(roomId);
  };
  const labels = { create: "menu_create", dm: "menu_dm", join: "menu_join", directory: "menu_directory" };

  return (
    <div className={styles.menuAnchor} ref={anchor}>
      <Button
        variant="secondary"
        size="sm"
        className={styles.plus}
        aria-label={t("menu_open")}
        title={t("menu_open")}
        aria-haspopup="menu"
        aria-expanded={menu}
        onClick={() => setMenu(!menu)}
      >
        +
      </Button>
      {menu && (
        <ul
          ref={items}
          className={styles.menu}
          role="menu"
          aria-label={t("menu_label")}
          onKeyDown={(e) => {
            const buttons = [...(items.current?.querySelectorAll("button") ?? [])];
            const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
            if (e.key === "Escape") {
              e.preventDefault();
              setMenu(false);
              anchor.current?.querySelector("button")?.focus();
            } else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
              e.preventDefault();
              const next = (at + (e.key === "ArrowDown" ? 1 : -1) + buttons.length) % buttons.length;
              buttons[next]?.focus();
            }
          }}
        >
          {ITEMS.map((kind) => (
            <li key={kind} role="none">
              <button type="button" role="menuitem" className={styles.menuItem} onClick={() => choose(kind)}>
                {t(labels[kind])}
              </button>
            </li>
          ))}
        </ul>
      )}
      <Suspense fallback={null}>
        {open?.kind === "create" && (
          <CreateRoomDialog actions={actions} onClose={() => setOpen(null)} onCreated={done} />
        )}
        {open?.kind === "dm" && (
          <StartDmDialog actions={actions} onClose={() => setOpen(null)} onOpened={done} />
        )}
        {open?.kind === "join" && (
          <JoinRoomDialog
            actions={actions}
            onClose={() => setOpen(null)}
            onJoined={done}
            onKnocked={() => undefined}
          />
        )}
        {open?.kind === "directory" && (
          <DirectoryDialog
            directory={open.vm}
            isJoined={(roomId) => list.isJoined(roomId)}
            onClose={() => setOpen(null)}
            onJoined={done}
          />
        )}
      </Suspense>
    </div>
  );
}
