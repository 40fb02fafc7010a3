/**
 * The room header's "People" button: opens or closes the member list panel
 * (an icon and its label; the label is left out on phones).
 */
import { Button } from "../../components/Button";
import { PeopleIcon } from "../../components/icons";
import { useT } from "../../i18n/useT";
import type { RoomViewModel } from "../../state/RoomViewModel";
import { useObservable } from "../../state/useObservable";
import styles from "./People.module.css";

export function MembersButton({ vm }: { vm: RoomViewModel }): React.JSX.Element {
  const t = useT("people");
  const panel = useObservable(vm.panel);
  const on = panel?.kind === "members" || panel?.kind === "user";
  return (
    <Button
      variant="ghost"
      size="sm"
      aria-pressed={on}
      aria-label={t("members_button_label")}
      onClick={() => (on ? vm.closePanel() : vm.openPanel({ kind: "members" }))}
    >
      <PeopleIcon />
      <span className={styles.buttonLabel}>{t("members_button")}</span>
    </Button>
  );
}
