/**
 * Settings, Advanced: the room id and version, upgrading to a newer
 * version (confirmed first), and leaving or forgetting the room.
 */
import { useState } from "react";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { useT } from "../../i18n/useT";
import type { RoomSettingsViewModel } from "../../state/room-settings/RoomSettingsViewModel";
import { useObservable } from "../../state/useObservable";
import styles from "./RoomSettings.module.css";

/** The version rooms are upgraded to. */
const UPGRADE_TARGET = "12";

export function AdvancedTab({
  settings,
  roomName,
  onLeft,
}: {
  settings: RoomSettingsViewModel;
  roomName: string;
  onLeft: () => void;
}): React.JSX.Element {
  const t = useT("roomSettings");
  const common = useT("common");
  const view = useObservable(settings.view);
  const status = useObservable(settings.status);
  const [ask, setAsk] = useState<"upgrade" | "leave" | null>(null);
  const [upgraded, setUpgraded] = useState<string | null>(null);
  const canUpgrade = view.can("m.room.tombstone") && view.roomVersion !== UPGRADE_TARGET;

  return (
    <>
      <div className={styles.group}>
        <span className={styles.legend}>{t("room_id")}</span>
        <span className={styles.mono}>{view.roomId}</span>
        <span className={styles.legend}>{t("version")}</span>
        <span>{view.roomVersion}</span>
      </div>
      <div className={styles.row}>
        <Button
          variant="secondary"
          disabled={!canUpgrade}
          busy={status.busy === "upgrade"}
          onClick={() => setAsk("upgrade")}
        >
          {t("upgrade_to", { version: UPGRADE_TARGET })}
        </Button>
      </div>
      {upgraded !== null && <p className={styles.notice}>{t("upgrade_done", { roomId: upgraded })}</p>}
      <div className={styles.danger}>
        <Button variant="danger" busy={status.busy === "leave"} onClick={() => setAsk("leave")}>
          {t("leave")}
        </Button>
        <Button
          variant="secondary"
          busy={status.busy === "forget"}
          onClick={() => void settings.forget().then((ok) => ok && onLeft())}
        >
          {t("forget")}
        </Button>
        <p className={styles.hint}>{t("forget_hint")}</p>
      </div>
      <Dialog
        open={ask !== null}
        title={ask === "upgrade" ? t("upgrade_confirm_title") : t("leave_confirm_title", { room: roomName })}
        onClose={() => setAsk(null)}
        actions={
          <>
            <Button variant="secondary" onClick={() => setAsk(null)}>
              {common("cancel")}
            </Button>
            <Button
              variant="danger"
              onClick={() => {
                const what = ask;
                setAsk(null);
                if (what === "upgrade")
                  void settings.upgrade(UPGRADE_TARGET).then((id) => id !== null && setUpgraded(id));
                else void settings.leave().then((ok) => ok && onLeft());
              }}
            >
              {ask === "upgrade" ? t("upgrade") : t("leave")}
            </Button>
          </>
        }
      >
        <p>{ask === "upgrade" ? t("upgrade_confirm_body") : t("leave_confirm_body")}</p>
      </Dialog>
    </>
  );
}
