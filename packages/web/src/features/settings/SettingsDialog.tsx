/**
 * The user settings dialog (its own lazy chunk): a section list (a vertical
 * tablist; a row of tabs on phones) and the open section, plus the password
 * prompt every interactive-auth write shares. `createSettings` makes the
 * view model when the dialog opens (from the click, not an effect).
 */
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { useT } from "../../i18n/useT";
import type { ClientViewModel } from "../../state/ClientViewModel";
import { notifierOf } from "../../state/notifications/notifier";
import { SETTINGS_SECTIONS, SettingsViewModel } from "../../state/settings/SettingsViewModel";
import type { SettingsSection } from "../../state/settings/SettingsViewModel";
import type { ThemeViewModel } from "../../state/ThemeViewModel";
import { useObservable } from "../../state/useObservable";
import { AccountSection } from "./AccountSection";
import { AppearanceSection, LanguageSection } from "./AppearanceSection";
import { NotificationsSection } from "./NotificationsSection";
import { PasswordDialog } from "./PasswordDialog";
import { ProfileSection } from "./ProfileSection";
import { SecuritySection } from "./SecuritySection";
import { SessionsSection } from "./SessionsSection";
import styles from "./Settings.module.css";

/** Makes the settings view model of a signed-in client. */
export function createSettings(client: ClientViewModel): SettingsViewModel {
  return new SettingsViewModel({
    client: client.client,
    appearanceHost: { storage: localStorage, root: document.documentElement },
    onDeactivated: () => void client.logout().catch(() => undefined),
  });
}

export function SettingsDialog({
  settings,
  client,
  theme,
  onClose,
}: {
  settings: SettingsViewModel;
  client: ClientViewModel;
  theme: ThemeViewModel;
  onClose: () => void;
}): React.JSX.Element {
  const t = useT("settings");
  const section = useObservable(settings.section);
  const room = useObservable(client.room);
  const roomSnapshot = room !== null ? room.room.getSnapshot() : null;

  const panel: Record<SettingsSection, () => React.JSX.Element> = {
    profile: () => <ProfileSection account={settings.account} userId={client.userId} />,
    notifications: () => (
      <NotificationsSection
        settings={settings.notifications}
        notifier={notifierOf(client)}
        room={roomSnapshot !== null ? { id: roomSnapshot.roomId, name: roomSnapshot.name.name } : null}
      />
    ),
    sessions: () => <SessionsSection sessions={settings.sessions} />,
    security: () => <SecuritySection security={settings.security} />,
    account: () => <AccountSection account={settings.account} />,
    appearance: () => <AppearanceSection settings={settings} theme={theme} />,
    language: () => <LanguageSection settings={settings} />,
  };

  return (
    <Dialog
      open
      wide
      title={t("title")}
      onClose={onClose}
      actions={
        <Button variant="secondary" onClick={onClose}>
          {t("close")}
        </Button>
      }
    >
      <div className={styles.layout}>
        <div
          className={styles.nav}
          role="tablist"
          aria-orientation="vertical"
          aria-label={t("title")}
          onKeyDown={(e) => {
            const step = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 }[e.key];
            if (step === undefined) return;
            e.preventDefault();
            const at = SETTINGS_SECTIONS.indexOf(section);
            const next = SETTINGS_SECTIONS[(at + step + SETTINGS_SECTIONS.length) % SETTINGS_SECTIONS.length];
            if (next === undefined) return;
            settings.open(next);
            e.currentTarget.querySelector<HTMLElement>(`[data-section="${next}"]`)?.focus();
          }}
        >
          {SETTINGS_SECTIONS.map((id) => (
            <button
              key={id}
              type="button"
              role="tab"
              data-section={id}
              id={`user-settings-tab-${id}`}
              aria-selected={section === id}
              aria-controls="user-settings-panel"
              tabIndex={section === id ? 0 : -1}
              className={`${styles.navItem} ${section === id ? styles.navOn : ""}`}
              onClick={() => settings.open(id)}
            >
              {t(`section_${id}`)}
            </button>
          ))}
        </div>
        <div
          className={styles.panel}
          role="tabpanel"
          id="user-settings-panel"
          aria-labelledby={`user-settings-tab-${section}`}
        >
          {panel[section]()}
        </div>
      </div>
      <PasswordDialog prompt={settings.prompt} />
    </Dialog>
  );
}
