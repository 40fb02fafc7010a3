/**
 * The embedded page's view: the room or the call (each a lazily loaded
 * chunk, so a page loads only its own view), and the connecting,
 * missing-parameter and failure states.
 */
import { lazy, Suspense } from "react";
import { useT } from "../i18n/useT";
import type { EmbeddedViewModel } from "../state/embedded/EmbeddedViewModel";
import { useObservable } from "../state/useObservable";
import styles from "./Embedded.module.css";

const RoomPage = lazy(() => import("./EmbeddedRoom"));
const CallPage = lazy(() => import("./EmbeddedCall"));

export function EmbeddedApp({ app }: { app: EmbeddedViewModel }): React.JSX.Element {
  const t = useT("embedded");
  const status = useObservable(app.status);
  switch (status.kind) {
    case "missing":
      return <p className={styles.notice}>{t("missing", { params: status.params.join(", ") })}</p>;
    case "connecting":
      return (
        <p className={styles.notice} role="status">
          {t("connecting")}
        </p>
      );
    case "failed":
      return (
        <p className={styles.notice} role="alert">
          {t("failed", { message: status.message })}
        </p>
      );
    case "room":
      return (
        <Suspense fallback={null}>
          <RoomPage vm={status.room} media={status.media} hideHeader={app.params.hideHeader} />
        </Suspense>
      );
    case "call":
      return (
        <Suspense fallback={null}>
          <CallPage app={app} calls={status.calls} joined={status.joined} />
        </Suspense>
      );
  }
}
