/**
 * The space menu and the dialogs it opens. The menu (from the space's "⋯"
 * button, a right click, Shift+F10 or the ContextMenu key) offers: explore
 * rooms, add rooms, a new room in the space, space settings, invite people
 * and leave. Arrow keys, Home and End move through it; Escape or Tab close
 * it and give focus back to the space. The "+" of the bar opens the create
 * space dialog through the same component.
 */
import { lazy, Suspense, useState } from "react";
import { createPortal } from "react-dom";
import { usePopupMenu } from "../../components/popupMenu";
import { useT } from "../../i18n/useT";
import type { ClientViewModel } from "../../state/ClientViewModel";
import type * as SpaceDialogsModule from "./SpaceDialogs";
import styles from "./Spaces.module.css";

// The settings dialog is the room settings' own (its own chunk, as for rooms).
const SpaceSettings = lazy(() => import("./SpaceSettings").then((m) => ({ default: m.SpaceSettings })));
// The other dialogs are one chunk, fetched when a dialog first opens: the first screen shows only the bar.
const dialogs = (): Promise<typeof SpaceDialogsModule> => import("./SpaceDialogs");
const CreateSpaceDialog = lazy(() => dialogs().then((m) => ({ default: m.CreateSpaceDialog })));
const AddRoomsDialog = lazy(() => dialogs().then((m) => ({ default: m.AddRoomsDialog })));
const NewRoomDialog = lazy(() => dialogs().then((m) => ({ default: m.NewRoomDialog })));
const InviteToSpaceDialog = lazy(() => dialogs().then((m) => ({ default: m.InviteToSpaceDialog })));
const LeaveSpaceDialog = lazy(() => dialogs().then((m) => ({ default: m.LeaveSpaceDialog })));
const ExploreSpaceDialog = lazy(() =>
  import("./ExploreSpaceDialog").then((m) => ({ default: m.ExploreSpaceDialog })),
);

/** What opened the menu. */
export type MenuAt =
  | { kind: "create" }
  | { kind: "space"; spaceId: string; name: string; x: number; y: number; returnTo: HTMLElement };

type Open = "menu" | "explore" | "add" | "new" | "settings" | "invite" | "leave";

export function SpaceMenu({
  client,
  at,
  onClose,
}: {
  client: ClientViewModel;
  at: MenuAt;
  onClose: () => void;
}): React.JSX.Element | null {
  const [open, setOpen] = useState<Open>("menu");
  if (at.kind === "create")
    return (
      <Suspense fallback={null}>
        <CreateSpaceDialog
          spaces={client.spaces}
          onClose={onClose}
          onCreated={(id) => {
            client.spaces.select(id);
            onClose();
          }}
        />
      </Suspense>
    );
  const close = (): void => {
    onClose();
    // After the dialog has left the page (a modal dialog's removal moves focus to the body).
    requestAnimationFrame(() => at.returnTo.focus());
  };
  const props = { spaces: client.spaces, spaceId: at.spaceId, name: at.name, onClose: close };
  if (open === "menu") return createPortal(<Menu at={at} onPick={setOpen} onClose={close} />, document.body);
  return <Suspense fallback={null}>{dialogFor(open)}</Suspense>;

  function dialogFor(which: Exclude<Open, "menu">): React.JSX.Element {
    switch (which) {
      case "explore":
        return (
          <ExploreSpaceDialog
            {...props}
            onOpenRoom={(roomId) => {
              client.roomList.select(roomId);
              close();
            }}
          />
        );
      case "add":
        return <AddRoomsDialog {...props} />;
      case "new":
        return <NewRoomDialog {...props} onCreated={(id) => client.roomList.selectWhenJoined(id)} />;
      case "invite":
        return <InviteToSpaceDialog {...props} />;
      case "leave":
        return <LeaveSpaceDialog {...props} />;
      case "settings":
        return <SpaceSettings {...props} />;
    }
  }
}

const ITEMS: ReadonlyArray<{ id: Exclude<Open, "menu">; key: string; danger?: boolean }> = [
  { id: "explore", key: "menu_explore" },
  { id: "add", key: "menu_add" },
  { id: "new", key: "menu_new_room" },
  { id: "settings", key: "menu_settings" },
  { id: "invite", key: "menu_invite" },
  { id: "leave", key: "menu_leave", danger: true },
];

function Menu({
  at,
  onPick,
  onClose,
}: {
  at: Extract<MenuAt, { kind: "space" }>;
  onPick: (open: Open) => void;
  onClose: () => void;
}): React.JSX.Element {
  const t = useT("spaces");
  const { ref, pos, onKey } = usePopupMenu(at, onClose);

  return (
    <div
      ref={ref}
      className={styles.menu}
      role="menu"
      aria-label={t("options", { name: at.name })}
      style={{ left: pos.left, top: pos.top }}
      onKeyDown={onKey}
      data-testid="space-menu"
    >
      <p className={styles.menuTitle}>{at.name}</p>
      {ITEMS.map((item) => (
        <button
          key={item.id}
          type="button"
          role="menuitem"
          className={`${styles.item} ${item.danger === true ? styles.danger : ""}`}
          onClick={() => onPick(item.id)}
        >
          {t(item.key)}
        </button>
      ))}
    </div>
  );
}
