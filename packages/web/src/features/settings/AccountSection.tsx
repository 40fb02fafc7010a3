/**
 * Settings › Account: change password (interactive auth asks for the
 * current one), email addresses and phone numbers (email: add with "check
 * your mail"; phone: a texted code, in PhoneForm; both removable), and
 * deactivation behind a confirmation.
 */
import { useState } from "react";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { TextField } from "../../components/TextField";
import { useT } from "../../i18n/useT";
import { ManageAccount } from "../auth/ManageAccount";
import type { AccountSettings } from "../../state/settings/AccountSettings";
import { useObservable } from "../../state/useObservable";
import styles from "./Settings.module.css";
import { PhoneForm } from "./PhoneForm";
import { StatusLine } from "./StatusLine";

function PasswordForm({ account }: { account: AccountSettings }): React.JSX.Element {
  const t = useT("settings");
  const status = useObservable(account.passwordStatus);
  const caps = useObservable(account.capabilities);
  const [next, setNext] = useState("");
  const [confirm, setConfirm] = useState("");
  const [logout, setLogout] = useState(true);
  const mismatch = confirm !== "" && confirm !== next;
  if (caps?.changePassword === false) return <p className={styles.hint}>{t("password_unsupported")}</p>;
  return (
    <form
      className={styles.group}
      aria-labelledby="acct-password"
      onSubmit={(e) => {
        e.preventDefault();
        void account.changePassword(next, logout).then((ok) => {
          if (ok) {
            setNext("");
            setConfirm("");
          }
        });
      }}
    >
      <h3 id="acct-password" className={styles.heading}>
        {t("password")}
      </h3>
      <TextField
        label={t("password_new")}
        type="password"
        autoComplete="new-password"
        value={next}
        onChange={setNext}
      />
      <TextField
        label={t("password_confirm")}
        type="password"
        autoComplete="new-password"
        value={confirm}
        onChange={setConfirm}
        error={mismatch ? t("password_mismatch") : null}
      />
      <label className={styles.choice}>
        <input type="checkbox" checked={logout} onChange={(e) => setLogout(e.target.checked)} />
        {t("password_logout")}
      </label>
      <div className={styles.row}>
        <Button type="submit" busy={status.busy} disabled={next === "" || next !== confirm}>
          {t("password_change")}
        </Button>
      </div>
      <StatusLine status={status} />
    </form>
  );
}

function Threepids({ account }: { account: AccountSettings }): React.JSX.Element {
  const t = useT("settings");
  const list = useObservable(account.threepids);
  const pending = useObservable(account.pendingEmail);
  const status = useObservable(account.threepidStatus);
  const [email, setEmail] = useState("");
  return (
    <section className={styles.group} aria-labelledby="acct-3pid">
      <h3 id="acct-3pid" className={styles.heading}>
        {t("emails")}
      </h3>
      {list.length === 0 ? (
        <p className={styles.hint}>{t("emails_none")}</p>
      ) : (
        <ul className={styles.list}>
          {list.map((p) => (
            <li key={`${p.medium}:${p.address}`} className={styles.item}>
              <span className={styles.itemMain}>{p.medium === "msisdn" ? `+${p.address}` : p.address}</span>
              <Button
                size="sm"
                variant="ghost"
                aria-label={t("threepid_remove", { address: p.address })}
                onClick={() =>
                  void account.removeThreepid(p.medium === "msisdn" ? "msisdn" : "email", p.address)
                }
              >
                ×
              </Button>
            </li>
          ))}
        </ul>
      )}
      {pending !== null ? (
        <div className={styles.group} role="status">
          <p className={styles.hint}>{t("email_check", { email: pending.email })}</p>
          <div className={styles.row}>
            <Button busy={status.busy} onClick={() => void account.confirmEmail()}>
              {t("email_continue")}
            </Button>
            <Button variant="secondary" onClick={() => void account.resendEmail()}>
              {t("email_resend")}
            </Button>
            <Button variant="ghost" onClick={() => account.cancelEmail()}>
              {t("email_cancel")}
            </Button>
          </div>
        </div>
      ) : (
        <form
          className={styles.rowEnd}
          onSubmit={(e) => {
            e.preventDefault();
            void account.startAddEmail(email).then((ok) => ok && setEmail(""));
          }}
        >
          <TextField
            className={styles.grow}
            type="email"
            label={t("email_new")}
            value={email}
            onChange={setEmail}
          />
          <Button type="submit" variant="secondary" busy={status.busy} disabled={!email.includes("@")}>
            {t("email_add")}
          </Button>
        </form>
      )}
      <StatusLine status={status} />
    </section>
  );
}

function Deactivate({ account }: { account: AccountSettings }): React.JSX.Element {
  const t = useT("settings");
  const status = useObservable(account.deactivateStatus);
  const [open, setOpen] = useState(false);
  const [erase, setErase] = useState(false);
  return (
    <section className={`${styles.group} ${styles.danger}`} aria-labelledby="acct-deactivate">
      <h3 id="acct-deactivate" className={styles.heading}>
        {t("deactivate")}
      </h3>
      <p className={styles.hint}>{t("deactivate_hint")}</p>
      <div className={styles.row}>
        <Button variant="danger" onClick={() => setOpen(true)}>
          {t("deactivate")}
        </Button>
      </div>
      <Dialog
        open={open}
        title={t("deactivate_confirm_title")}
        onClose={() => setOpen(false)}
        actions={
          <>
            <Button variant="secondary" onClick={() => setOpen(false)}>
              {t("cancel")}
            </Button>
            <Button variant="danger" busy={status.busy} onClick={() => void account.deactivate(erase)}>
              {t("deactivate_confirm")}
            </Button>
          </>
        }
      >
        <p>{t("deactivate_hint")}</p>
        <label className={styles.choice}>
          <input type="checkbox" checked={erase} onChange={(e) => setErase(e.target.checked)} />
          {t("deactivate_erase")}
        </label>
        <StatusLine status={status} />
      </Dialog>
    </section>
  );
}

export function AccountSection({ account }: { account: AccountSettings }): React.JSX.Element {
  return (
    <>
      <ManageAccount />
      <PasswordForm account={account} />
      <Threepids account={account} />
      <PhoneForm phones={account.phones} />
      <Deactivate account={account} />
    </>
  );
}
