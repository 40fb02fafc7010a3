/**
 * The embedded page's view: the room (the app's Timeline and RoomComposer
 * over the room's view model, under a header the host may hide) or the
 * call (a lobby with Join, then the app's CallView over the group call),
 * and the connecting, missing-parameter and failure states.
 */
import { useCallback } from "react";
import { Button } from "../components/Button";
import { useT } from "../i18n/useT";
import type { EmbeddedViewModel } from "../state/embedded/EmbeddedViewModel";
import type { RoomViewModel } from "../state/RoomViewModel";
import type { CallsViewModel } from "../state/calls/CallsViewModel";
import { useObservable } from "../state/useObservable";
import { CallView } from "../features/calls/CallView";
import { RoomComposer } from "../features/composer/RoomComposer";
import { Timeline } from "../features/timeline/Timeline";
import styles from "./Embedded.module.css";

function RoomPage({ vm, hideHeader }: { vm: RoomViewModel; hideHeader: boolean }): React.JSX.Element {
  const room = useObservable(vm.room);
  const onReply = useCallback((id: string) => vm.reply(id), [vm]);
  const onEdit = useCallback((id: string) => vm.edit(id), [vm]);
  return (
    <section className={styles.page} aria-label={room.name.name}>
      {!hideHeader && (
        <header className={styles.header}>
          <h1 className={styles.title}>{room.name.name}</h1>
        </header>
      )}
      <Timeline vm={vm.timeline} onReply={onReply} onEdit={onEdit} />
      <RoomComposer room={vm} />
    </section>
  );
}

function CallPage({
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
      return <RoomPage vm={status.room} hideHeader={app.params.hideHeader} />;
    case "call":
      return <CallPage app={app} calls={status.calls} joined={status.joined} />;
  }
}
