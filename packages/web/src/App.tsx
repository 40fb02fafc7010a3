/**
 * The root component: renders whichever screen the AppViewModel says
 * (loading, sign-in, soft logout, the signed-in client). The loading
 * screen says what it waits for: the start, or the provider's sign-in
 * being finished after its redirect back (never a blank page).
 */
import { Spinner } from "./components/Spinner";
import { SignInScreen } from "./features/auth/SignInScreen";
import { SoftLogoutScreen } from "./features/auth/SoftLogoutScreen";
import { ClientShell } from "./features/shell/ClientShell";
import { useT } from "./i18n/useT";
import type { AppViewModel } from "./state/AppViewModel";
import { useObservable } from "./state/useObservable";
import styles from "./App.module.css";

export function App({ app }: { app: AppViewModel }): React.JSX.Element {
  const screen = useObservable(app.screen);
  const t = useT("auth");
  switch (screen.kind) {
    case "loading":
      return (
        <div className={styles.loading}>
          <div className={styles.progress} role="status" aria-live="polite">
            <Spinner size="lg" label="" />
            <p className={styles.progressTitle}>
              {screen.step === "returning" ? t("finishing_sign_in") : t("starting")}
            </p>
            {screen.step === "returning" && (
              <p className={styles.progressDetail}>{t("finishing_sign_in_detail")}</p>
            )}
          </div>
        </div>
      );
    case "signin":
      return <SignInScreen key="signin" vm={screen.vm} theme={app.theme} />;
    case "soft_logout":
      return <SoftLogoutScreen vm={screen.vm} theme={app.theme} />;
    case "client":
      return <ClientShell key={screen.vm.userId} client={screen.vm} theme={app.theme} />;
  }
}
