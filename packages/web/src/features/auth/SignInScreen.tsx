/**
 * The sign-in screen: homeserver, "Continue with <provider>" first when the
 * server delegates sign-in to an OIDC provider, password login and SSO
 * buttons when the server still offers them, guest access and the way to
 * registration (the provider's own when OIDC is offered). It renders
 * the SignInViewModel and sends the user's actions back to it.
 */
import { useState } from "react";
import { Banner } from "../../components/Banner";
import { Button } from "../../components/Button";
import { TextField } from "../../components/TextField";
import type { SignInViewModel } from "../../state/SignInViewModel";
import type { ThemeViewModel } from "../../state/ThemeViewModel";
import { useT } from "../../i18n/useT";
import { useObservable } from "../../state/useObservable";
import { AuthLayout } from "./AuthLayout";
import styles from "./AuthForms.module.css";
import { HomeserverPicker } from "./HomeserverPicker";
import { OidcActions } from "./OidcActions";
import { RegisterForm } from "./RegisterForm";

export function SignInScreen({
  vm,
  theme,
}: {
  vm: SignInViewModel;
  theme: ThemeViewModel;
}): React.JSX.Element {
  const mode = useObservable(vm.mode);
  const t = useT("auth");
  if (mode === "register" && vm.register !== undefined) {
    return (
      <AuthLayout title={t("register_title")} theme={theme}>
        <HomeserverPicker vm={vm} />
        <RegisterForm vm={vm.register} onBack={() => vm.showLogin()} />
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title={t("sign_in_title")} subtitle={t("sign_in_subtitle")} theme={theme}>
      {vm.notice !== null && <Banner tone="warning">{vm.notice}</Banner>}
      <HomeserverPicker vm={vm} />
      <LoginForm vm={vm} />
    </AuthLayout>
  );
}

function LoginForm({ vm }: { vm: SignInViewModel }): React.JSX.Element {
  const status = useObservable(vm.server);
  const busy = useObservable(vm.busy);
  const error = useObservable(vm.error);
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const ready = status.kind === "ready";
  const info = ready ? status.info : null;
  const oidc = ready ? status.oidc : null;
  const viaOidc = oidc?.kind === "offered";
  const t = useT("auth");
  return (
    <>
      {error !== null && <Banner tone="error">{error}</Banner>}
      {oidc !== null && <OidcActions vm={vm} oidc={oidc} busy={busy} />}
      {viaOidc && info?.password === true && (
        <div className={styles.divider}>
          <span>{t("or")}</span>
        </div>
      )}
      {(info === null || info.password) && (
        <form
          className={styles.form}
          onSubmit={(e) => {
            e.preventDefault();
            void vm.login(username, password);
          }}
        >
          <TextField
            label={t("username")}
            value={username}
            onChange={setUsername}
            autoComplete="username"
            placeholder={t("username_placeholder")}
            spellCheck={false}
            autoCapitalize="none"
          />
          <TextField
            label={t("password")}
            type="password"
            value={password}
            onChange={setPassword}
            autoComplete="current-password"
          />
          <Button
            type="submit"
            variant={viaOidc ? "secondary" : "primary"}
            wide
            busy={busy === "login"}
            disabled={!ready || busy !== null}
          >
            {t("sign_in")}
          </Button>
        </form>
      )}
      {info?.sso != null && (
        <div className={styles.alternatives}>
          <div className={styles.divider}>
            <span>{t("or")}</span>
          </div>
          {info.sso.length === 0 ? (
            <Button variant="secondary" wide busy={busy === "sso"} onClick={() => vm.startSso()}>
              {t("sso_continue")}
            </Button>
          ) : (
            info.sso.map((idp) => (
              <Button
                key={idp.id}
                variant="secondary"
                wide
                busy={busy === "sso"}
                onClick={() => vm.startSso(idp.id)}
              >
                {t("sso_continue_with", { name: idp.name })}
              </Button>
            ))
          )}
        </div>
      )}
      <div className={styles.footer}>
        {!viaOidc && (
          <Button variant="ghost" size="sm" disabled={!ready} onClick={() => vm.showRegister()}>
            {t("create_account_link")}
          </Button>
        )}
        <Button
          variant="ghost"
          size="sm"
          disabled={!ready || busy !== null}
          busy={busy === "guest"}
          onClick={() => void vm.continueAsGuest()}
        >
          {t("guest_continue")}
        </Button>
      </div>
    </>
  );
}
