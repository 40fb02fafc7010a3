/**
 * The user panel: avatar, name, id, role; Message (DM), Mention (into the
 * room's composer), Ignore, Remove
 * (kick) and Ban with a reason, Unban, Let in (a knock), the power level
 * (Admin, Moderator, Default or a custom number) and Verify (opens the
 * verification dialog of state/verification). Each action
 * the power levels forbid stays visible, marked disabled, with the reason
 * as its tooltip; a server refusal shows under the actions. Their sessions
 * are listed with their verification values.
 */
import { useEffect, useState } from "react";
import { Avatar } from "../../components/Avatar";
import { Button } from "../../components/Button";
import { BackIcon } from "../../components/icons";
import { useT } from "../../i18n/useT";
import { roomExtrasOf } from "../../state/people/RoomExtras";
import type { UserPanelViewModel } from "../../state/people/UserPanelViewModel";
import type { RoomViewModel } from "../../state/RoomViewModel";
import { useObservable } from "../../state/useObservable";
import { useAvatarUrl } from "../timeline/media/useMedia";
import { GuardedButton } from "./GuardedButton";
import styles from "./People.module.css";
import { PowerLevelPicker } from "./PowerLevelPicker";
import { ReasonDialog } from "./ReasonDialog";

function Devices({ user }: { user: UserPanelViewModel }): React.JSX.Element {
  const t = useT("people");
  const devices = useObservable(user.devices);
  useEffect(() => void user.loadDevices(), [user]);
  if (devices === null) return <p className={styles.muted}>…</p>;
  if (devices.length === 0) return <p className={styles.muted}>{t("user_devices_none")}</p>;
  return (
    <ul className={styles.devices} aria-label={t("user_devices")}>
      {devices.map((d) => (
        <li key={d.deviceId} className={styles.device}>
          <span title={d.deviceId}>{d.displayName ?? d.deviceId}</span>
          {d.verification === "verified" ? (
            <span className={styles.verified}>{t("user_device_verified")}</span>
          ) : d.verification !== "unknown" ? (
            <span className={styles.unverified}>{t("user_device_unverified")}</span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

export function UserPanel({ vm, userId }: { vm: RoomViewModel; userId: string }): React.JSX.Element {
  const t = useT("people");
  const tv = useT("verification");
  const user = roomExtrasOf(vm).user(userId);
  const view = useObservable(user.view);
  const status = useObservable(user.status);
  const url = useAvatarUrl(view.avatarUrl);
  const [asking, setAsking] = useState<"kick" | "ban" | null>(null);
  const r = view.rights;
  const present = view.membership === "join" || view.membership === "invite";

  return (
    <div className={styles.panel} aria-label={t("user_title")}>
      <Button variant="ghost" size="sm" onClick={() => vm.openPanel({ kind: "members" })}>
        <BackIcon /> {t("user_back")}
      </Button>
      <div className={styles.profile}>
        <Avatar id={view.userId} name={view.name} url={url} size={80} />
        <h3 className={styles.profileName}>{view.name}</h3>
        <span className={styles.userId}>{view.userId}</span>
        <span className={styles.role}>
          {view.isMe ? `${view.roleLabel} · ${t("user_you")}` : view.roleLabel}
        </span>
        {view.membership === "ban" && view.reason !== undefined && (
          <span className={styles.muted}>{t("banned_by", { reason: view.reason })}</span>
        )}
      </div>
      {!view.isMe && (
        <div className={styles.actions}>
          {user.canDm && (
            <Button busy={status.busy === "dm"} onClick={() => void user.dm()}>
              {t("user_dm")}
            </Button>
          )}
          {vm.canMention && (
            <Button variant="secondary" onClick={() => vm.mention(view.userId, view.name)}>
              {t("user_mention")}
            </Button>
          )}
          <GuardedButton
            variant="secondary"
            reason={user.canVerify ? null : tv("verify_unavailable")}
            onClick={() => void user.verify()}
          >
            {t("user_verify")}
          </GuardedButton>
          <Button
            variant="secondary"
            busy={status.busy === "ignore"}
            onClick={() => void user.setIgnored(!view.ignored)}
          >
            {view.ignored ? t("user_unignore") : t("user_ignore")}
          </Button>
          {view.membership === "knock" && (
            <GuardedButton
              reason={r.acceptKnock}
              busy={status.busy === "invite"}
              onClick={() => void user.acceptKnock()}
            >
              {t("user_accept_knock")}
            </GuardedButton>
          )}
          {present && (
            <GuardedButton variant="secondary" reason={r.kick} onClick={() => setAsking("kick")}>
              {t("user_kick")}
            </GuardedButton>
          )}
          {view.membership === "ban" ? (
            <GuardedButton
              variant="danger"
              reason={r.unban}
              busy={status.busy === "unban"}
              onClick={() => void user.unban()}
            >
              {t("user_unban")}
            </GuardedButton>
          ) : (
            <GuardedButton variant="danger" reason={r.ban} onClick={() => setAsking("ban")}>
              {t("user_ban")}
            </GuardedButton>
          )}
        </div>
      )}
      <PowerLevelPicker
        level={view.level}
        max={r.maxLevel}
        reason={r.power}
        busy={status.busy === "power"}
        onApply={(level) => void user.setPowerLevel(level)}
      />
      {status.error !== null && (
        <p className={styles.error} role="alert">
          {status.error}
        </p>
      )}
      {status.notice !== null && (
        <p className={styles.notice} role="status">
          {status.notice}
        </p>
      )}
      <h4 className={styles.section}>{t("user_devices")}</h4>
      <Devices user={user} />
      {asking !== null && (
        <ReasonDialog
          title={t(asking === "kick" ? "kick_title" : "ban_title", { name: view.name })}
          confirm={t(asking === "kick" ? "kick_confirm" : "ban_confirm")}
          busy={status.busy === asking}
          onClose={() => setAsking(null)}
          onConfirm={async (reason) => {
            const ok = asking === "kick" ? await user.kick(reason) : await user.ban(reason);
            if (ok) setAsking(null);
          }}
        />
      )}
    </div>
  );
}
