/**
 * The room header's "Apps" button: opens or closes the apps panel (the
 * room's widgets). Its count says how many widgets the room has. On a
 * phone it is left out of a room with no widgets where the user may not
 * add one.
 */
import { Button } from "../../components/Button";
import { useT } from "../../i18n/useT";
import type { RoomViewModel } from "../../state/RoomViewModel";
import { useObservable } from "../../state/useObservable";
import type { RoomWidgetsViewModel } from "../../state/widgets/RoomWidgetsViewModel";
import styles from "./Widgets.module.css";

function AppsIcon(): React.JSX.Element {
  return (
    <svg
      width="18"
      height="18"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
    >
      <rect x="3" y="3" width="7" height="7" rx="1" />
      <rect x="14" y="3" width="7" height="7" rx="1" />
      <rect x="3" y="14" width="7" height="7" rx="1" />
      <rect x="14" y="14" width="7" height="7" rx="1" />
    </svg>
  );
}

export function AppsButton({
  room,
  vm,
}: {
  room: RoomViewModel;
  vm: RoomWidgetsViewModel;
}): React.JSX.Element {
  const t = useT("widgets");
  const panel = useObservable(room.panel);
  const widgets = useObservable(vm.widgets);
  const canManage = useObservable(vm.canManage);
  const on = panel?.kind === "widgets";
  // A phone's header is full: there the button shows only when it leads somewhere (widgets, or the right to add one).
  const optional = widgets.length === 0 && !canManage && !on;
  return (
    <Button
      variant="ghost"
      size="sm"
      className={`${styles.appsButton} ${optional ? styles.phoneOptional : ""}`}
      aria-pressed={on}
      aria-label={t("apps_button_label")}
      data-testid="apps-button"
      onClick={() => (on ? room.closePanel() : room.openPanel({ kind: "widgets" }))}
    >
      <AppsIcon />
      <span className={styles.buttonLabel}>{t("apps_button")}</span>
      {widgets.length > 0 && <span className={styles.count}>{widgets.length}</span>}
    </Button>
  );
}
