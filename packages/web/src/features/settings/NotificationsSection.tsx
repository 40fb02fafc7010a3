/**
 * Settings › Notifications: this browser's permission (ask, or the denied
 * state), the global toggles over the default push rules, keywords, and the
 * open room's mode (all, mentions & keywords, mute).
 */
import { useState } from "react";
import { Banner } from "../../components/Banner";
import { Button } from "../../components/Button";
import { TextField } from "../../components/TextField";
import { useT } from "../../i18n/useT";
import type { NotificationsViewModel } from "../../state/notifications/NotificationsViewModel";
import { GLOBAL_TOGGLES, keywordsOf, toggleState } from "../../state/settings/NotificationSettings";
import type {
  GlobalToggle,
  NotificationSettings,
  RoomNotificationMode,
} from "../../state/settings/NotificationSettings";
import { useObservable } from "../../state/useObservable";
import styles from "./Settings.module.css";
import { StatusLine } from "./StatusLine";

const TOGGLES = Object.keys(GLOBAL_TOGGLES) as GlobalToggle[];
const MODES: RoomNotificationMode[] = ["all", "mentions", "mute"];

function BrowserPermission({ notifier }: { notifier: NotificationsViewModel }): React.JSX.Element {
  const t = useT("notifications");
  const permission = useObservable(notifier.permission);
  return (
    <section className={styles.group} aria-labelledby="notif-browser">
      <h3 id="notif-browser" className={styles.heading}>
        {t("title")}
      </h3>
      {permission === "granted" && <p className={styles.notice}>{t("granted")}</p>}
      {permission === "denied" && <Banner tone="warning">{t("denied")}</Banner>}
      {permission === "unsupported" && <p className={styles.hint}>{t("unsupported")}</p>}
      {permission === "default" && (
        <div className={styles.row}>
          <p className={`${styles.hint} ${styles.grow}`}>{t("prompt")}</p>
          <Button onClick={() => void notifier.requestPermission()}>{t("enable")}</Button>
        </div>
      )}
    </section>
  );
}

export function NotificationsSection({
  settings,
  notifier,
  room,
}: {
  settings: NotificationSettings;
  notifier: NotificationsViewModel;
  room: { id: string; name: string } | null;
}): React.JSX.Element {
  const t = useT("settings");
  const ruleset = useObservable(settings.ruleset);
  const status = useObservable(settings.status);
  const [keyword, setKeyword] = useState("");
  return (
    <>
      <BrowserPermission notifier={notifier} />
      {ruleset === null ? (
        <p className={styles.hint}>{t("loading")}</p>
      ) : (
        <>
          <fieldset className={styles.group}>
            <legend className={styles.legend}>{t("notif_global")}</legend>
            {TOGGLES.map((toggle) => (
              <label key={toggle} className={styles.choice}>
                <input
                  type="checkbox"
                  role="switch"
                  checked={toggleState(ruleset, toggle)}
                  disabled={status.busy}
                  onChange={(e) => void settings.setToggle(toggle, e.target.checked)}
                />
                {t(`notif_${toggle}`)}
              </label>
            ))}
          </fieldset>
          <section className={styles.group} aria-labelledby="notif-keywords">
            <h3 id="notif-keywords" className={styles.heading}>
              {t("keywords")}
            </h3>
            <p className={styles.hint}>{t("keywords_hint")}</p>
            <form
              className={styles.row}
              onSubmit={(e) => {
                e.preventDefault();
                void settings.addKeyword(keyword).then((ok) => ok && setKeyword(""));
              }}
            >
              <TextField
                className={styles.grow}
                label={t("keyword_new")}
                value={keyword}
                onChange={setKeyword}
              />
              <Button type="submit" variant="secondary" disabled={keyword.trim() === ""}>
                {t("keyword_add")}
              </Button>
            </form>
            {keywordsOf(ruleset).length === 0 ? (
              <p className={styles.hint}>{t("keywords_none")}</p>
            ) : (
              <ul className={`${styles.row} ${styles.chips}`} aria-label={t("keywords")}>
                {keywordsOf(ruleset).map((word) => (
                  <li key={word} className={styles.pill}>
                    {word}{" "}
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-label={t("keyword_remove", { keyword: word })}
                      onClick={() => void settings.removeKeyword(word)}
                    >
                      ×
                    </Button>
                  </li>
                ))}
              </ul>
            )}
          </section>
          {room !== null && (
            <fieldset className={styles.group}>
              <legend className={styles.legend}>
                {t("room_mode")} · {room.name}
              </legend>
              <div className={styles.row} role="radiogroup" aria-label={t("room_mode")}>
                {MODES.map((mode) => (
                  <label key={mode} className={styles.choice}>
                    <input
                      type="radio"
                      name="room-mode"
                      checked={settings.roomMode(room.id) === mode}
                      onChange={() => void settings.setRoomMode(room.id, mode)}
                    />
                    {t(`mode_${mode}`)}
                  </label>
                ))}
              </div>
            </fieldset>
          )}
        </>
      )}
      <StatusLine status={status} />
    </>
  );
}
