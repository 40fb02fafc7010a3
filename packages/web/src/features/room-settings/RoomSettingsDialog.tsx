/**
 * The room settings dialog: General, Security, Roles & permissions and
 * Advanced tabs (the shared Tabs: arrow keys move between them), with the last
 * change's result (saved, or the refusal) under them.
 */
import { useState } from "react";
import { TabbedDialog } from "../../components/TabbedDialog";
import { useT } from "../../i18n/useT";
import type { RoomSettingsViewModel } from "../../state/room-settings/RoomSettingsViewModel";
import { useObservable } from "../../state/useObservable";
import { AdvancedTab } from "./AdvancedTab";
import { GeneralTab } from "./GeneralTab";
import { RolesTab } from "./RolesTab";
import styles from "./RoomSettings.module.css";
import { SecurityTab } from "./SecurityTab";

const TABS = ["general", "security", "roles", "advanced"] as const;
type Tab = (typeof TABS)[number];

export function RoomSettingsDialog({
  settings,
  roomName,
  onClose,
  onLeft,
}: {
  settings: RoomSettingsViewModel;
  roomName: string;
  onClose: () => void;
  onLeft: () => void;
}): React.JSX.Element {
  const t = useT("roomSettings");
  const common = useT("common");
  const [tab, setTab] = useState<Tab>("general");
  const status = useObservable(settings.status);

  return (
    <TabbedDialog
      title={`${t("title")} · ${roomName}`}
      closeLabel={common("close")}
      onClose={onClose}
      tabs={{
        ids: TABS,
        selected: tab,
        onSelect: setTab,
        labelOf: (id) => t(`tab_${id}`),
        label: t("title"),
        idPrefix: "room-settings",
        panelClassName: styles.tabPanel,
      }}
      after={
        <>
          {status.error !== null && (
            <p className={styles.error} role="alert">
              {status.error}
            </p>
          )}
          {status.error === null && status.notice !== null && (
            <p className={styles.notice} role="status">
              {status.notice}
            </p>
          )}
        </>
      }
    >
      {tab === "general" && <GeneralTab settings={settings} />}
      {tab === "security" && <SecurityTab settings={settings} />}
      {tab === "roles" && <RolesTab settings={settings} />}
      {tab === "advanced" && <AdvancedTab settings={settings} roomName={roomName} onLeft={onLeft} />}
    </TabbedDialog>
  );
}
