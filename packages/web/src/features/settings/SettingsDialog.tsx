/**
 * The user settings dialog (its own lazy chunk): a section list (a vertical
 * tablist; a row of tabs on phones) and the open section, plus the password
 * prompt every interactive-auth write shares. `createSettings` makes the
 * view model when the dialog opens (from the click, not an effect).
 */
import { TabbedDialog } from "../../components/TabbedDialog";
import { useT } from "../../i18n/useT";
import type { ClientViewModel } from "../../state/ClientViewModel";
import { notifierOf } from "../../state/notifications/notifier";
import { callsOf } from "../../state/calls/calls";
import { VoiceVideoSection } from "../calls/VoiceVideoSection";
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
import { HelpSection, ShortcutsSection } from "./ShortcutsSection";
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
    voice: () => <VoiceVideoSection calls={callsOf(client)} />,
    sessions: () => <SessionsSection sessions={settings.sessions} />,
    security: () => <SecuritySection security={settings.security} />,
    account: () => <AccountSection account={settings.account} />,
    appearance: () => <AppearanceSection settings={settings} theme={theme} />,
    language: () => <LanguageSection settings={settings} />,
    shortcuts: () => <ShortcutsSection />,
    help: () => <HelpSection />,
  };

  return (
    <TabbedDialog
      title={t("title")}
      closeLabel={t("close")}
      onClose={onClose}
      layoutClassName={styles.layout}
      tabs={{
        ids: SETTINGS_SECTIONS,
        selected: section,
        onSelect: (id) => settings.open(id),
        labelOf: (id) => t(`section_${id}`),
        label: t("title"),
        idPrefix: "user-settings",
        orientation: "vertical",
        panelClassName: styles.panel,
      }}
      after={<PasswordDialog prompt={settings.prompt} />}
    >
      {panel[section]()}
    </TabbedDialog>
  );
}
