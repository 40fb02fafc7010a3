/**
 * The main pane of a room the user is invited to (who invited them, the
 * room, Accept and Decline) or has knocked on (waiting, with a way to
 * withdraw); a room the user was banned or removed from says so, with the
 * reason; any other room shows its children (the room itself). It follows
 * the room, so accepting switches to the room in place.
 */
import { useState } from "react";
import type { ReactNode } from "react";
import { Avatar } from "../../components/Avatar";
import { Button } from "../../components/Button";
import { useT } from "../../i18n/useT";
import type { RoomActionsViewModel } from "../../state/rooms/RoomActionsViewModel";
import { describeFailure } from "../../state/rooms/failure";
import { useObservable } from "../../state/useObservable";
import type { Subscribable } from "../../state/useObservable";
import styles from "./Rooms.module.css";

export interface InviteGateProps {
  room: Subscribable<{ roomId: string; category: string }>;
  actions: RoomActionsViewModel | null;
  /** Called after a decline (the room list moves on). */
  onDone: () => void;
  children: ReactNode;
}

export function InviteGate({ room, actions, onDone, children }: InviteGateProps): React.JSX.Element {
  const snap = useObservable(room);
  const t = useT("people");
  const removal = actions !== null && snap.category === "leave" ? actions.removal(snap.roomId) : null;
  if (removal !== null) {
    const key = removal.kind === "ban" ? "you_were_banned" : "you_were_kicked";
    return (
      <section className={styles.invite} aria-label={t(key)}>
        <h2 className={styles.inviteTitle} role="alert">
          {removal.reason !== undefined ? t(`${key}_reason`, { reason: removal.reason }) : t(key)}
        </h2>
        {removal.by !== undefined && (
          <p className={styles.inviteText}>{t("removed_by", { name: removal.by })}</p>
        )}
        <Button variant="secondary" onClick={onDone}>
          {t("removed_close")}
        </Button>
      </section>
    );
  }
  if (actions === null || (snap.category !== "invite" && snap.category !== "knock")) return <>{children}</>;
  return (
    <InviteView roomId={snap.roomId} knock={snap.category === "knock"} actions={actions} onDone={onDone} />
  );
}

function InviteView({
  roomId,
  knock,
  actions,
  onDone,
}: {
  roomId: string;
  knock: boolean;
  actions: RoomActionsViewModel;
  onDone: () => void;
}): React.JSX.Element {
  const t = useT("rooms");
  const [busy, setBusy] = useState<"accept" | "decline" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const info = actions.inviteInfo(roomId);
  const name = info?.name ?? roomId;
  const inviter = info?.inviterName ?? info?.inviter;

  const act = async (kind: "accept" | "decline"): Promise<void> => {
    setBusy(kind);
    setError(null);
    try {
      if (kind === "accept") await actions.acceptInvite(roomId);
      else {
        await actions.declineInvite(roomId);
        onDone();
      }
    } catch (e) {
      setError(describeFailure(e));
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className={styles.invite} aria-label={knock ? t("knocked_title") : t("invite_title")}>
      <Avatar id={info?.inviter ?? roomId} name={name} size={72} />
      <h2 className={styles.inviteTitle}>{name}</h2>
      <p className={styles.inviteText}>
        {knock
          ? t("knocked_body")
          : inviter === undefined
            ? t("invite_unknown")
            : info?.isDirect === true
              ? t("invite_dm_from", { name: inviter })
              : t("invite_from", { name: inviter })}
      </p>
      {info?.inviter !== undefined && info.inviterName !== undefined && (
        <p className={styles.hint}>{info.inviter}</p>
      )}
      {info?.topic !== undefined && <p className={styles.inviteText}>{info.topic}</p>}
      {error !== null && (
        <p className={styles.bad} role="alert">
          {error}
        </p>
      )}
      <div className={styles.inviteActions}>
        {knock ? (
          <Button variant="secondary" busy={busy === "decline"} onClick={() => void act("decline")}>
            {t("knocked_cancel")}
          </Button>
        ) : (
          <>
            <Button variant="secondary" busy={busy === "decline"} onClick={() => void act("decline")}>
              {t("invite_decline")}
            </Button>
            <Button busy={busy === "accept"} onClick={() => void act("accept")}>
              {t("invite_accept")}
            </Button>
          </>
        )}
      </div>
    </section>
  );
}
