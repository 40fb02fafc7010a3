/** Settings › Keyboard shortcuts and Help & About: the app's real bindings (state/settings/shortcuts.ts), the version and links. */
import { useT } from "../../i18n/useT";
import { ABOUT, SHORTCUTS, shortcutKeysOf } from "../../state/settings/shortcuts";
import styles from "./Settings.module.css";

/** Apple systems show ⌘ for Ctrl (the handlers accept either). */
function isApple(): boolean {
  return typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.userAgent);
}

export function ShortcutsSection(): React.JSX.Element {
  const t = useT("settings");
  const apple = isApple();
  return (
    <>
      {SHORTCUTS.map((group) => (
        <section key={group.title} className={styles.group} aria-labelledby={`shortcuts-${group.title}`}>
          <h3 id={`shortcuts-${group.title}`} className={styles.heading}>
            {t(group.title)}
          </h3>
          <ul className={styles.list}>
            {group.shortcuts.map((s) => (
              <li key={s.action} className={styles.item} data-testid="shortcut">
                <span className={styles.grow}>{t(s.action)}</span>
                <span className={styles.keys}>
                  {shortcutKeysOf(s.keys, apple).map((k, i) => (
                    <kbd key={i} className={styles.kbd}>
                      {k}
                    </kbd>
                  ))}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </>
  );
}

export function HelpSection(): React.JSX.Element {
  const t = useT("settings");
  return (
    <section className={styles.group}>
      <p>{t("about_text")}</p>
      <p data-testid="app-version">{t("about_version", { version: ABOUT.version })}</p>
      <ul className={styles.list}>
        {ABOUT.links.map((l) => (
          <li key={l.href} className={styles.item}>
            <a href={l.href} target="_blank" rel="noopener noreferrer">
              {t(l.label)}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
