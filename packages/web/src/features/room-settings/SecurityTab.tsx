/**
 * Settings, Security: who can join (invite, anyone, knock, members of
 * chosen spaces), who can read history, guest access, and encryption,
 * which can only be turned on, after a confirmation.
 */
import { useState } from "react";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { useT } from "../../i18n/useT";
import type {
  HistoryVisibility,
  JoinRule,
  RoomSettingsViewModel,
} from "../../state/room-settings/RoomSettingsViewModel";
import { useObservable } from "../../state/useObservable";
import styles from "./RoomSettings.module.css";

const JOIN_RULES: JoinRule[] = ["invite", "knock", "restricted", "public"];
const HISTORY: HistoryVisibility[] = ["shared", "invited", "joined", "world_readable"];

export function SecurityTab({ settings }: { settings: RoomSettingsViewModel }): React.JSX.Element {
  const t = useT("roomSettings");
  const common = useT("common");
  const view = useObservable(settings.view);
  const status = useObservable(settings.status);
  const [confirm, setConfirm] = useState(false);
  const spaces = settings.mySpaces;
  const [chosen, setChosen] = useState<string[]>(view.allowSpaces);
  const canJoin = view.can("m.room.join_rules");

  return (
    <>
      <fieldset className={styles.group} disabled={!canJoin}>
        <legend className={styles.legend}>{t("join_rule")}</legend>
        {JOIN_RULES.map((rule) => (
          <label key={rule} className={styles.choice}>
            <input
              type="radio"
              name="join_rule"
              checked={view.joinRule === rule}
              onChange={() => void settings.setJoinRule(rule, rule === "restricted" ? chosen : [])}
            />
            {t(`join_${rule}`)}
          </label>
        ))}
        {view.joinRule === "restricted" && (
          <div className={styles.group}>
            <span className={styles.hint}>{t("join_restricted_spaces")}</span>
            {spaces.length === 0 && <p className={styles.hint}>{t("join_restricted_none")}</p>}
            {spaces.map((s) => (
              <label key={s.roomId} className={styles.choice}>
                <input
                  type="checkbox"
                  checked={chosen.includes(s.roomId)}
                  onChange={(e) => {
                    const next = e.target.checked
                      ? [...chosen, s.roomId]
                      : chosen.filter((id) => id !== s.roomId);
                    setChosen(next);
                    void settings.setJoinRule("restricted", next);
                  }}
                />
                {s.name}
              </label>
            ))}
          </div>
        )}
      </fieldset>
      <fieldset className={styles.group} disabled={!view.can("m.room.history_visibility")}>
        <legend className={styles.legend}>{t("history")}</legend>
        {HISTORY.map((h) => (
          <label key={h} className={styles.choice}>
            <input
              type="radio"
              name="history"
              checked={view.historyVisibility === h}
              onChange={() => void settings.setHistoryVisibility(h)}
            />
            {t(`history_${h}`)}
          </label>
        ))}
      </fieldset>
      <label className={styles.choice}>
        <input
          type="checkbox"
          checked={view.guestAccess}
          disabled={!view.can("m.room.guest_access")}
          onChange={(e) => void settings.setGuestAccess(e.target.checked)}
        />
        {t("guest")}
      </label>
      <fieldset className={styles.group}>
        <legend className={styles.legend}>{t("encryption")}</legend>
        {view.encrypted ? (
          <p className={styles.on}>{t("encryption_on")}</p>
        ) : (
          <div className={styles.row}>
            <Button
              variant="secondary"
              disabled={!view.can("m.room.encryption")}
              busy={status.busy === "encryption"}
              onClick={() => setConfirm(true)}
            >
              {t("encryption_enable")}
            </Button>
          </div>
        )}
      </fieldset>
      <Dialog
        open={confirm}
        title={t("encryption_confirm_title")}
        onClose={() => setConfirm(false)}
        actions={
          <>
            <Button variant="secondary" onClick={() => setConfirm(false)}>
              {common("cancel")}
            </Button>
            <Button
              onClick={() => {
                setConfirm(false);
                void settings.enableEncryption();
              }}
            >
              {t("encryption_enable")}
            </Button>
          </>
        }
      >
        <p>{t("encryption_confirm_body")}</p>
      </Dialog>
    </>
  );
}
