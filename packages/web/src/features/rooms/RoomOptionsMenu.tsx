/**
 * The room list's per-room options. `RoomOptionsButton` sits in each row
 * (shown on hover, focus or selection); `RoomOptionsMenu`, rendered once
 * in the list, opens the menu from that button, a right click on a row, or
 * Shift+F10 / the ContextMenu key on the list (for the active row). The
 * menu: notification mode (all, mentions and keywords, mute), favourite,
 * low priority, mark as read, copy link, leave (confirmed). Arrow keys move
 * through it, Escape closes it and gives focus back.
 */
import { useEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { usePopupMenu } from "../../components/popupMenu";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { useT } from "../../i18n/useT";
import { roomOptionsOf } from "../../state/rooms/RoomOptionsViewModel";
import type { MenuRequest, RoomOptionsViewModel } from "../../state/rooms/RoomOptionsViewModel";
import type { RoomNotificationMode } from "../../state/settings/NotificationSettings";
import { useObservable } from "../../state/useObservable";
import styles from "./RoomOptions.module.css";

const ATTR = "data-room-options";

/** The "⋯" button of a row. */
export function RoomOptionsButton({
  list,
  roomId,
  name,
}: {
  list: object;
  roomId: string;
  name: string;
}): React.JSX.Element | null {
  const t = useT("navigation");
  const vm = roomOptionsOf(list);
  const menu = useObservable(vm?.menu ?? NO_MENU);
  if (vm === undefined) return null;
  return (
    <button
      type="button"
      className={styles.button}
      {...{ [ATTR]: roomId }}
      tabIndex={-1}
      aria-haspopup="menu"
      aria-expanded={menu?.roomId === roomId}
      aria-label={t("options_button", { name })}
      onClick={(e) => {
        e.stopPropagation();
        const r = e.currentTarget.getBoundingClientRect();
        vm.openMenu(roomId, r.right, r.bottom);
      }}
    >
      ⋯
    </button>
  );
}

const NO_MENU = {
  getSnapshot: (): MenuRequest | null => null,
  subscribe: (): (() => void) => () => undefined,
};

function roomIdOfRow(row: Element | null): string | null {
  return row?.querySelector(`[${ATTR}]`)?.getAttribute(ATTR) ?? null;
}

/** The menu of the list (render once, beside the listbox). */
export function RoomOptionsMenu({ list }: { list: object }): React.JSX.Element | null {
  const vm = roomOptionsOf(list);
  const anchor = useRef<HTMLSpanElement>(null);
  const returnFocus = useRef<HTMLElement | null>(null);
  const menu = useObservable(vm?.menu ?? NO_MENU);
  const [leaving, setLeaving] = useState<{ roomId: string; name: string } | null>(null);

  useEffect(() => {
    const listbox = anchor.current?.parentElement?.querySelector<HTMLElement>('[role="listbox"]');
    if (vm === undefined || listbox === null || listbox === undefined) return;
    const onContext = (e: MouseEvent): void => {
      const row = (e.target as Element).closest('[role="option"]');
      const roomId = roomIdOfRow(row);
      if (roomId === null) return;
      e.preventDefault();
      returnFocus.current = listbox;
      vm.openMenu(roomId, e.clientX, e.clientY);
    };
    const onKey = (e: KeyboardEvent): void => {
      if (e.key !== "ContextMenu" && !(e.shiftKey && e.key === "F10")) return;
      const active = listbox.getAttribute("aria-activedescendant");
      const row = active !== null ? document.getElementById(active) : null;
      const roomId = roomIdOfRow(row);
      if (row === null || roomId === null) return;
      e.preventDefault();
      returnFocus.current = listbox;
      const r = row.getBoundingClientRect();
      vm.openMenu(roomId, r.left + 24, r.bottom);
    };
    listbox.addEventListener("contextmenu", onContext);
    listbox.addEventListener("keydown", onKey);
    return () => {
      listbox.removeEventListener("contextmenu", onContext);
      listbox.removeEventListener("keydown", onKey);
    };
  }, [vm]);

  if (vm === undefined) return <span ref={anchor} hidden />;
  const close = (): void => {
    vm.closeMenu();
    returnFocus.current?.focus();
  };
  return (
    <span ref={anchor} hidden={menu === null && leaving === null}>
      {menu !== null &&
        createPortal(
          <Menu vm={vm} request={menu} onClose={close} onLeave={(r) => setLeaving(r)} />,
          document.body,
        )}
      {leaving !== null && <LeaveDialog vm={vm} room={leaving} onClose={() => setLeaving(null)} />}
    </span>
  );
}

function Menu({
  vm,
  request,
  onClose,
  onLeave,
}: {
  vm: RoomOptionsViewModel;
  request: MenuRequest;
  onClose: () => void;
  onLeave: (room: { roomId: string; name: string }) => void;
}): React.JSX.Element | null {
  const t = useT("navigation");
  useObservable(vm.notifications.ruleset);
  const status = useObservable(vm.status);
  const [copied, setCopied] = useState(false);
  const view = vm.view(request.roomId);
  // The list re-renders with every sync: placement and focus run once per request, not per render.
  const { ref, pos, onKey } = usePopupMenu(request, onClose);

  if (view === null) return null;
  const act = (action: () => Promise<boolean>): void => {
    void action().then((ok) => ok && onClose());
  };
  const mode = (m: RoomNotificationMode, key: string): React.JSX.Element => (
    <button
      type="button"
      role="menuitemradio"
      aria-checked={view.mode === m}
      className={styles.item}
      onClick={() => act(() => vm.setMode(view.roomId, m))}
    >
      <span className={styles.mark} aria-hidden="true">
        {view.mode === m ? "●" : ""}
      </span>
      {t(key)}
    </button>
  );
  return (
    <div
      ref={ref}
      className={styles.menu}
      role="menu"
      aria-label={`${t("options_menu")}: ${view.name}`}
      style={{ left: pos.left, top: pos.top }}
      onKeyDown={onKey}
      data-testid="room-options"
    >
      <p className={styles.title}>{view.name}</p>
      <p className={styles.heading} role="presentation">
        {t("options_notifications")}
      </p>
      <div role="group" aria-label={t("options_notifications")}>
        {mode("all", "options_notify_all")}
        {mode("mentions", "options_notify_mentions")}
        {mode("mute", "options_notify_mute")}
      </div>
      <hr className={styles.separator} />
      <button
        type="button"
        role="menuitemcheckbox"
        aria-checked={view.favourite}
        className={styles.item}
        onClick={() => act(() => vm.setFavourite(view.roomId, !view.favourite))}
      >
        <span className={styles.mark} aria-hidden="true">
          {view.favourite ? "✓" : ""}
        </span>
        {t("options_favourite")}
      </button>
      <button
        type="button"
        role="menuitemcheckbox"
        aria-checked={view.lowPriority}
        className={styles.item}
        onClick={() => act(() => vm.setLowPriority(view.roomId, !view.lowPriority))}
      >
        <span className={styles.mark} aria-hidden="true">
          {view.lowPriority ? "✓" : ""}
        </span>
        {t("options_low_priority")}
      </button>
      <hr className={styles.separator} />
      <button
        type="button"
        role="menuitem"
        className={styles.item}
        disabled={!view.unread}
        onClick={() => act(() => vm.markRead(view.roomId))}
      >
        <span className={styles.mark} aria-hidden="true" />
        {t("options_mark_read")}
      </button>
      <button
        type="button"
        role="menuitem"
        className={styles.item}
        onClick={() => {
          void navigator.clipboard
            ?.writeText(vm.linkOf(view.roomId))
            .then(() => setCopied(true))
            .catch(() => setCopied(false));
        }}
      >
        <span className={styles.mark} aria-hidden="true" />
        {copied ? t("options_link_copied") : t("options_copy_link")}
      </button>
      <button
        type="button"
        role="menuitem"
        className={`${styles.item} ${styles.danger}`}
        onClick={() => {
          onClose();
          onLeave({ roomId: view.roomId, name: view.name });
        }}
      >
        <span className={styles.mark} aria-hidden="true" />
        {t("options_leave")}
      </button>
      {status.error !== null && (
        <p className={styles.error} role="alert">
          {status.error}
        </p>
      )}
    </div>
  );
}

function LeaveDialog({
  vm,
  room,
  onClose,
}: {
  vm: RoomOptionsViewModel;
  room: { roomId: string; name: string };
  onClose: () => void;
}): React.JSX.Element {
  const t = useT("navigation");
  const common = useT("common");
  const status = useObservable(vm.status);
  return (
    <Dialog
      open
      title={t("options_leave_title", { name: room.name })}
      onClose={onClose}
      actions={
        <>
          <Button variant="secondary" onClick={onClose}>
            {common("cancel")}
          </Button>
          <Button
            variant="danger"
            busy={status.busy === "leave"}
            onClick={() => void vm.leave(room.roomId).then((ok) => ok && onClose())}
          >
            {t("options_leave")}
          </Button>
        </>
      }
    >
      <p>{t("options_leave_body")}</p>
      {status.error !== null && <p role="alert">{status.error}</p>}
    </Dialog>
  );
}
