/**
 * Soft logout: the session was ended by the server but this device and its
 * local data (messages, keys) are kept; the password resumes it (or, for a
 * session signed in through OIDC, the provider does), or the user signs out
 * for good.
 */
import { useState } from "react";
import { Banner } from "../../components/Banner";
import { Button } from "../../components/Button";
import { TextField } from "../../components/TextField";
import { useT } from "../../i18n/useT";
import { OidcSoftLogoutViewModel } from "../../state/oidc/OidcSoftLogoutViewModel";
import type { SoftLogoutViewModel } from "../../state/SoftLogoutViewModel";
import type { ThemeViewModel } from "../../state/ThemeViewModel";
import { useObservable } from "../../state/useObservable";
import { AuthLayout } from "./AuthLayout";
import styles from "./AuthForms.module.css";

export function SoftLogoutScreen({
  vm,
  theme,
}: {
  vm: SoftLogoutViewModel;
  theme: ThemeViewModel;
}): React.JSX.Element {
  const busy = useObservable(vm.busy);
  const error = useObservable(vm.error);
  const [password, setPassword] = useState("");
  const t = useT("auth");
  return (
    <AuthLayout
      title={t("soft_logout_title")}
      subtitle={t("soft_logout_subtitle", { userId: vm.userId })}
      theme={theme}
    >
      <Banner tone="info">{t("soft_logout_kept")}</Banner>
      {error !== null && <Banner tone="error">{error}</Banner>}
      {vm instanceof OidcSoftLogoutViewModel ? (
        <Button wide busy={busy} onClick={() => void vm.continueWithProvider()}>
          {t("soft_logout_continue", { host: vm.issuerHost })}
        </Button>
      ) : (
        <form
          className={styles.form}
          onSubmit={(e) => {
            e.preventDefault();
            void vm.resume(password);
          }}
        >
          <TextField
            label={t("password")}
            type="password"
            value={password}
            onChange={setPassword}
            autoComplete="current-password"
          />
          <Button type="submit" wide busy={busy}>
            {t("soft_logout_sign_in")}
          </Button>
        </form>
      )}
      <div className={styles.footer}>
        <Button variant="ghost" size="sm" onClick={() => void vm.signOut()}>
          {t("soft_logout_clear")}
        </Button>
      </div>
    </AuthLayout>
  );
}
