/**
 * Settings › Security & privacy: cross-signing status and set-up, key
 * backup counts, recovery (set up, with the key shown once for copying or
 * download; or recover this device with a key). Disabled with the reason
 * when this device has no encryption.
 */
import { useState } from "react";
import { Banner } from "../../components/Banner";
import { Button } from "../../components/Button";
import { TextField } from "../../components/TextField";
import { useT } from "../../i18n/useT";
import type { SecuritySettings } from "../../state/settings/SecuritySettings";
import { useObservable } from "../../state/useObservable";
import styles from "./Settings.module.css";
import { StatusLine } from "./StatusLine";

function RecoveryKey({ security, value }: { security: SecuritySettings; value: string }): React.JSX.Element {
  const t = useT("settings");
  return (
    <section className={styles.group} aria-labelledby="recovery-key-title">
      <h3 id="recovery-key-title" className={styles.heading}>
        {t("recovery_key_title")}
      </h3>
      <p className={styles.hint}>{t("recovery_key_hint")}</p>
      <code className={styles.key} data-testid="recovery-key">
        {value}
      </code>
      <div className={styles.row}>
        <Button variant="secondary" onClick={() => void navigator.clipboard?.writeText(value)}>
          {t("recovery_key_copy")}
        </Button>
        <Button
          variant="secondary"
          onClick={() => {
            const a = document.createElement("a");
            a.href = URL.createObjectURL(new Blob([value + "\n"], { type: "text/plain" }));
            a.download = "lattice-recovery-key.txt";
            a.click();
            setTimeout(() => URL.revokeObjectURL(a.href), 1000);
          }}
        >
          {t("recovery_key_download")}
        </Button>
        <Button onClick={() => security.dismissRecoveryKey()}>{t("recovery_key_saved")}</Button>
      </div>
    </section>
  );
}

export function SecuritySection({ security }: { security: SecuritySettings }): React.JSX.Element {
  const t = useT("settings");
  const view = useObservable(security.view);
  const unavailable = useObservable(security.unavailable);
  const newKey = useObservable(security.newRecoveryKey);
  const status = useObservable(security.status);
  const [key, setKey] = useState("");

  if (unavailable !== null) return <Banner tone="info">{unavailable}</Banner>;
  if (view === null) return <p className={styles.hint}>{t("loading")}</p>;
  if (newKey !== null) return <RecoveryKey security={security} value={newKey} />;
  const cs = view.crossSigning;
  const ready = cs.hasMaster && cs.hasSelfSigning && cs.deviceSigned;
  return (
    <>
      <section className={styles.group} aria-labelledby="sec-cs">
        <h3 id="sec-cs" className={styles.heading}>
          {t("cross_signing")}
        </h3>
        <p className={styles.hint}>
          {ready
            ? t("cross_signing_ready")
            : cs.identityKnown
              ? t("cross_signing_elsewhere")
              : t("cross_signing_none")}
        </p>
        {!cs.identityKnown && (
          <div className={styles.row}>
            <Button busy={status.busy} onClick={() => void security.bootstrapCrossSigning()}>
              {t("cross_signing_setup")}
            </Button>
          </div>
        )}
      </section>
      <section className={styles.group} aria-labelledby="sec-backup">
        <h3 id="sec-backup" className={styles.heading}>
          {t("backup")}
        </h3>
        <p className={styles.hint}>
          {view.backup !== null && view.backup.total > 0
            ? t("backup_counts", { backedUp: view.backup.backedUp, total: view.backup.total })
            : t("backup_none")}
        </p>
      </section>
      <section className={styles.group} aria-labelledby="sec-recovery">
        <h3 id="sec-recovery" className={styles.heading}>
          {t("recovery")}
        </h3>
        <p className={styles.hint}>{view.recoverySetUp ? t("recovery_on") : t("recovery_off")}</p>
        {!view.recoverySetUp && (
          <div className={styles.row}>
            <Button busy={status.busy} onClick={() => void security.setUpRecovery()}>
              {t("recovery_setup")}
            </Button>
          </div>
        )}
        {view.recoverySetUp && !ready && (
          <form
            className={styles.row}
            onSubmit={(e) => {
              e.preventDefault();
              void security.recover(key);
            }}
          >
            <TextField
              className={styles.grow}
              label={t("recovery_key_field")}
              value={key}
              onChange={setKey}
            />
            <Button type="submit" busy={status.busy} disabled={key.trim() === ""}>
              {t("recovery_restore_button")}
            </Button>
          </form>
        )}
      </section>
      <StatusLine status={status} />
    </>
  );
}
