/**
 * Settings › Appearance (theme, font size, layout: each applies at once and
 * is kept across reloads), URL previews (account data) and Language. Theme and layout choices are cards
 * from the shared Form styles.
 */
import { useT } from "../../i18n/useT";
import { FONT_SIZES, LAYOUTS } from "../../state/settings/Appearance";
import type { SettingsViewModel } from "../../state/settings/SettingsViewModel";
import type { ThemeChoice, ThemeViewModel } from "../../state/ThemeViewModel";
import { useObservable } from "../../state/useObservable";
import form from "../../components/Form.module.css";
import styles from "./Settings.module.css";

const THEMES: ThemeChoice[] = ["system", "light", "dark"];

export function AppearanceSection({
  settings,
  theme,
}: {
  settings: SettingsViewModel;
  theme: ThemeViewModel;
}): React.JSX.Element {
  const t = useT("settings");
  const choice = useObservable(theme.choice);
  const fontSize = useObservable(settings.appearance.fontSize);
  const layout = useObservable(settings.appearance.layout);
  return (
    <>
      <fieldset className={styles.group}>
        <legend className={styles.legend}>{t("theme")}</legend>
        <div className={styles.row} role="radiogroup" aria-label={t("theme")}>
          {THEMES.map((id) => (
            <label key={id} className={form.choiceCard} data-checked={choice === id}>
              <input type="radio" name="theme" checked={choice === id} onChange={() => theme.set(id)} />
              {t(`theme_${id}`)}
            </label>
          ))}
        </div>
      </fieldset>
      <label className={styles.group}>
        <span className={styles.legend}>
          {t("font_size")}: {fontSize}px
        </span>
        <input
          className={form.range}
          type="range"
          min={0}
          max={FONT_SIZES.length - 1}
          step={1}
          value={Math.max(0, (FONT_SIZES as readonly number[]).indexOf(fontSize))}
          onChange={(e) => settings.appearance.setFontSize(FONT_SIZES[Number(e.target.value)] ?? 16)}
        />
        <span className={form.hint}>{t("font_size_hint")}</span>
      </label>
      <fieldset className={styles.group}>
        <legend className={styles.legend}>{t("layout")}</legend>
        <div className={styles.row} role="radiogroup" aria-label={t("layout")}>
          {LAYOUTS.map((id) => (
            <label key={id} className={form.choiceCard} data-checked={layout === id}>
              <input
                type="radio"
                name="layout"
                checked={layout === id}
                onChange={() => settings.appearance.setLayout(id)}
              />
              {t(`layout_${id}`)}
            </label>
          ))}
        </div>
        <p className={form.hint}>{t("layout_hint")}</p>
      </fieldset>
      <UrlPreviewFields settings={settings} />
    </>
  );
}

/** URL previews: on for the account, and for links from strangers. */
function UrlPreviewFields({ settings }: { settings: SettingsViewModel }): React.JSX.Element {
  const t = useT("settings");
  const enabled = useObservable(settings.urlPreviews.enabled);
  const strangers = useObservable(settings.urlPreviews.strangers);
  return (
    <fieldset className={styles.group}>
      <legend className={styles.legend}>{t("url_previews")}</legend>
      <label>
        <input
          type="checkbox"
          checked={enabled}
          onChange={(e) => void settings.urlPreviews.setEnabled(e.target.checked)}
        />{" "}
        {t("url_previews_on")}
      </label>
      <label>
        <input
          type="checkbox"
          checked={strangers}
          disabled={!enabled}
          onChange={(e) => void settings.urlPreviews.setStrangers(e.target.checked)}
        />{" "}
        {t("url_previews_strangers")}
      </label>
      <p className={form.hint}>{t("url_previews_hint")}</p>
    </fieldset>
  );
}

export function LanguageSection({ settings }: { settings: SettingsViewModel }): React.JSX.Element {
  const t = useT("settings");
  const language = useObservable(settings.language);
  return (
    <label className={styles.group}>
      <span className={styles.legend}>{t("language")}</span>
      <select
        className={form.control}
        value={language}
        onChange={(e) => void settings.setLanguage(e.target.value)}
      >
        {settings.languages.map((l) => (
          <option key={l.code} value={l.code}>
            {l.name}
          </option>
        ))}
      </select>
    </label>
  );
}
