/**
 * The embedded call view, its own chunk: a lobby with Join, then the app's
 * CallView over the room's group call and a Leave button.
 */
import { Button } from "../components/Button";
import { useT } from "../i18n/useT";
import type { EmbeddedViewModel } from "../state/embedded/EmbeddedViewModel";
import type { CallsViewModel } from "../state/calls/CallsViewModel";
import { useObservable } from "../state/useObservable";
import { CallView } from "../features/calls/CallView";
import styles from "./Embedded.module.css";

export default function CallPage({
  app,
  calls,
  joined,
}: {
  app: EmbeddedViewModel;
  calls: CallsViewModel;
  joined: boolean;
}): React.JSX.Element {
  const t = useT("embedded");
  const active = useObservable(calls.active);
  const error = useObservable(calls.error);
  if (joined && active)
    return (
      <section className={styles.page}>
        <CallView calls={calls} call={active} />
        <div className={styles.bar}>
          <Button variant="danger" onClick={() => void app.hangup()}>
            {t("leave")}
          </Button>
        </div>
      </section>
    );
  return (
    <section className={styles.lobby} aria-label={t("lobby")}>
      {!app.params.hideHeader && <h1 className={styles.title}>{t("lobby")}</h1>}
      {error !== null && <p role="alert">{error}</p>}
      <div className={styles.bar}>
        <Button onClick={() => void app.join(false)}>{t("join")}</Button>
        <Button variant="ghost" onClick={() => void app.join(true)}>
          {t("joinVideo")}
        </Button>
      </div>
    </section>
  );
}
