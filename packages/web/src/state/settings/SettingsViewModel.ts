/**
 * The user settings: one view model per section (profile and account,
 * sessions, notifications, security, appearance) sharing the password
 * prompt of interactive auth, plus language. Made when the settings dialog
 * opens (its chunk is lazy) and disposed when it closes.
 */
import { LANGUAGES, i18n, setLanguage, t } from "../../i18n/i18n";
import type { Client } from "../../sdk";
import { ObservableValue } from "../observables";
import { Scope } from "../Scope";
import { AccountSettings } from "./AccountSettings";
import { AppearanceSettings } from "./Appearance";
import type { AppearanceHost } from "./Appearance";
import { NotificationSettings } from "./NotificationSettings";
import { PasswordPrompt } from "./PasswordPrompt";
import { SecuritySettings } from "./SecuritySettings";
import { SessionsSettings } from "./SessionsSettings";
import { UrlPreviewSettings } from "./UrlPreviewSettings";

/** The sections, in the order the dialog lists them. */
export const SETTINGS_SECTIONS = [
  "profile",
  "notifications",
  "voice",
  "sessions",
  "security",
  "account",
  "appearance",
  "language",
  "shortcuts",
  "help",
] as const;
export type SettingsSection = (typeof SETTINGS_SECTIONS)[number];

export interface SettingsOptions {
  client: Client;
  appearanceHost: AppearanceHost;
  /** Called after the account was deactivated. */
  onDeactivated?: () => void;
}

export class SettingsViewModel {
  readonly prompt = new PasswordPrompt();
  readonly account: AccountSettings;
  readonly sessions: SessionsSettings;
  readonly notifications: NotificationSettings;
  readonly security: SecuritySettings;
  readonly appearance: AppearanceSettings;
  readonly urlPreviews: UrlPreviewSettings;
  readonly section = new ObservableValue<SettingsSection>("profile");
  readonly language = new ObservableValue<string>(i18n.language);
  readonly languages = LANGUAGES;
  private readonly scope = new Scope();
  private readonly loaded = new Set<SettingsSection>();

  constructor(options: SettingsOptions) {
    const { client } = options;
    this.account = new AccountSettings(client, this.prompt, options.onDeactivated);
    this.sessions = new SessionsSettings(client, this.prompt);
    this.notifications = new NotificationSettings(client, this.scope.child());
    this.security = new SecuritySettings(
      client,
      this.prompt,
      t("settings", "security_off"),
      this.scope.child(),
    );
    this.appearance = new AppearanceSettings(options.appearanceHost);
    this.urlPreviews = new UrlPreviewSettings(client);
    this.scope.add(() => this.prompt.cancel());
    this.open("profile");
  }

  /** Shows a section, loading its data the first time. */
  open(section: SettingsSection): void {
    this.section.set(section);
    if (this.loaded.has(section)) return;
    this.loaded.add(section);
    const load = {
      profile: () => this.account.load(),
      account: () => this.account.load(),
      notifications: () => this.notifications.load(),
      sessions: () => this.sessions.load(),
      security: () => this.security.load(),
      appearance: () => Promise.resolve(),
      language: () => Promise.resolve(),
      shortcuts: () => Promise.resolve(),
      help: () => Promise.resolve(),
      // Voice & video has its own view models (state/calls), made by its section.
      voice: () => Promise.resolve(),
    }[section];
    void load().catch(() => this.loaded.delete(section));
  }

  /** Switches the interface language. */
  async setLanguage(code: string): Promise<void> {
    await setLanguage(code);
    this.language.set(code);
  }

  dispose(): void {
    this.scope.end();
  }
}
