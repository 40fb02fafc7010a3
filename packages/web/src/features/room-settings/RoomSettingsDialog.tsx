/**
 * The room settings dialog: General, Security, Roles & permissions and
 * Advanced tabs (a tablist: arrow keys move between tabs), with the last
 * change's result (saved, or the refusal) under them.
 */
import { useState } from "react";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
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
    <Dialog
      open
      wide
      title={`${t("title")} · ${roomName}`}
      onClose={onClose}
      actions={
        <Button variant="secondary" onClick={onClose}>
          {common("close")}
        </Button>
      }
    >
      <div
        className={styles.tabs}
        role="tablist"
        aria-label={t("title")}
        onKeyDown={(e) => {
          if (e.key !== "ArrowRight" && e.key !== "ArrowLeft") return;
          const next =
            TABS[(TABS.indexOf(tab) + (e.key === "ArrowRight" ? 1 : TABS.length - 1)) % TABS.length] ??
            "general";
          setTab(next);
          e.currentTarget.querySelector<HTMLElement>(`[data-tab="${next}"]`)?.focus();
        }}
      >
        {TABS.map((id) => (
          <button
            key={id}
            type="button"
            role="tab"
            data-tab={id}
            id={`settings-tab-${id}`}
            aria-selected={tab === id}
            aria-controls="settings-tabpanel"
            tabIndex={tab === id ? 0 : -1}
            className={`${styles.tab} ${tab === id ? styles.tabOn : ""}`}
            onClick={() => setTab(id)}
          >
            {t(`tab_${id}`)}
          </button>
        ))}
      </div>
      <div
        className={styles.tabPanel}
        role="tabpanel"
        id="settings-tabpanel"
        aria-labelledby={`settings-tab-${tab}`}
      >
        {tab === "general" && <GeneralTab settings={settings} />}
        {tab === "security" && <SecurityTab settings={settings} />}
        {tab === "roles" && <RolesTab settings={settings} />}
        {tab === "advanced" && <AdvancedTab settings={settings} roomName={roomName} onLeft={onLeft} />}
      </div>
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
    </Dialog>
  );
}
