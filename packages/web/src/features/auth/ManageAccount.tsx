/**
 * Settings › Account for a session signed in through OIDC: "Manage
 * account" opens the provider's account page (its account_management_uri,
 * on the profile action when supported) in a new tab. Renders nothing for
 * a password session or a provider without such a page.
 */
import { useEffect, useState } from "react";
import buttonStyles from "../../components/Button.module.css";
import { useT } from "../../i18n/useT";
import { AccountManagement } from "../../state/oidc/AccountManagement";
import { useObservable } from "../../state/useObservable";
import styles from "../settings/Settings.module.css";

export function ManageAccount({ vm }: { vm?: AccountManagement }): React.JSX.Element | null {
  const t = useT("auth");
  // The Account section has no parent view model that knows the session: read the stored one once.
  const [management] = useState(() => vm ?? AccountManagement.forStoredSession(localStorage));
  const url = useObservable(management.url);
  useEffect(() => {
    void management.load();
  }, [management]);
  if (url === null) return null;
  return (
    <section className={styles.group} aria-labelledby="acct-manage">
      <h3 id="acct-manage" className={styles.heading}>
        {t("manage_account_heading")}
      </h3>
      <p className={styles.hint}>{t("manage_account_hint", { host: new URL(url).host })}</p>
      <div className={styles.row}>
        <a
          className={[buttonStyles.button, buttonStyles.secondary, buttonStyles.md].join(" ")}
          href={url}
          target="_blank"
          rel="noopener noreferrer"
        >
          <span className={buttonStyles.label}>{t("manage_account")}</span>
        </a>
      </div>
    </section>
  );
}
