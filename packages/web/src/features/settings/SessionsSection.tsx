/**
 * Settings › Sessions: every device of the account (this one first) with
 * its name, last activity and verification state; rename in place, sign
 * out one, or tick several and sign them out together (the password prompt
 * of interactive auth follows).
 */
import { useState } from "react";
import { Button } from "../../components/Button";
import { TextField } from "../../components/TextField";
import { useT } from "../../i18n/useT";
import type { SessionRow, SessionsSettings } from "../../state/settings/SessionsSettings";
import { useObservable } from "../../state/useObservable";
import styles from "./Settings.module.css";
import { StatusLine } from "./StatusLine";

function Session({ row, sessions }: { row: SessionRow; sessions: SessionsSettings }): React.JSX.Element {
  const t = useT("settings");
  const selected = useObservable(sessions.selected);
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(row.displayName);
  const seen =
    row.lastSeenTs !== undefined
      ? t("session_last_seen", { when: new Date(row.lastSeenTs).toLocaleString(), ip: row.lastSeenIp ?? "?" })
      : t("session_never");
  const trustClass =
    row.trust === "verified" ? styles.pillGood : row.trust === "unknown" ? "" : styles.pillWarn;
  return (
    <li className={styles.item} data-device={row.deviceId}>
      {!row.current && (
        <input
          type="checkbox"
          aria-label={t("session_select", { device: row.displayName })}
          checked={selected.has(row.deviceId)}
          onChange={() => sessions.toggle(row.deviceId)}
        />
      )}
      <div className={styles.itemMain}>
        {editing ? (
          <form
            className={styles.row}
            onSubmit={(e) => {
              e.preventDefault();
              void sessions.rename(row.deviceId, name).then((ok) => ok && setEditing(false));
            }}
          >
            <TextField
              className={styles.grow}
              label={t("session_rename_label", { device: row.deviceId })}
              value={name}
              onChange={setName}
              autoFocus
            />
            <Button type="submit" size="sm">
              {t("save")}
            </Button>
            <Button type="button" size="sm" variant="ghost" onClick={() => setEditing(false)}>
              {t("cancel")}
            </Button>
          </form>
        ) : (
          <span className={styles.itemTitle}>
            {row.displayName} {row.current && <span className={styles.pill}>{t("session_current")}</span>}
          </span>
        )}
        <span className={styles.itemMeta}>
          {row.deviceId} · {seen}
        </span>
      </div>
      <span className={`${styles.pill} ${trustClass}`}>{t(`trust_${row.trust}`)}</span>
      {!editing && (
        <Button size="sm" variant="ghost" onClick={() => setEditing(true)}>
          {t("session_rename")}
        </Button>
      )}
      {!row.current && (
        <Button size="sm" variant="danger" onClick={() => void sessions.signOut([row.deviceId])}>
          {t("session_sign_out")}
        </Button>
      )}
    </li>
  );
}

export function SessionsSection({ sessions }: { sessions: SessionsSettings }): React.JSX.Element {
  const t = useT("settings");
  const rows = useObservable(sessions.sessions);
  const selected = useObservable(sessions.selected);
  const status = useObservable(sessions.status);
  if (rows === null) return <p className={styles.hint}>{t("loading")}</p>;
  return (
    <>
      <p className={styles.hint}>{t("sessions_intro")}</p>
      <ul className={styles.list} aria-label={t("section_sessions")}>
        {rows.map((row) => (
          <Session key={row.deviceId} row={row} sessions={sessions} />
        ))}
      </ul>
      {selected.size > 0 && (
        <div className={styles.row}>
          <Button variant="danger" busy={status.busy} onClick={() => void sessions.signOut()}>
            {t("sessions_sign_out_selected", { count: selected.size })}
          </Button>
        </div>
      )}
      <StatusLine status={status} />
    </>
  );
}
