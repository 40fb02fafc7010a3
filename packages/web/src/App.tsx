/**
 * The root component: renders whichever screen the AppViewModel says
 * (loading, sign-in, soft logout, the signed-in client).
 */
import { Spinner } from "./components/Spinner";
import { SignInScreen } from "./features/auth/SignInScreen";
import { SoftLogoutScreen } from "./features/auth/SoftLogoutScreen";
import { ClientShell } from "./features/shell/ClientShell";
import type { AppViewModel } from "./state/AppViewModel";
import { useObservable } from "./state/useObservable";
import styles from "./App.module.css";

export function App({ app }: { app: AppViewModel }): React.JSX.Element {
  const screen = useObservable(app.screen);
  switch (screen.kind) {
    case "loading":
      return (
        <div className={styles.loading}>
          <Spinner size="lg" label="Starting Lattice" />
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
