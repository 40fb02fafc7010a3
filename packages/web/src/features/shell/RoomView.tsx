/**
 * The main pane: the selected room (RoomPane, loaded lazily: its timeline,
 * composer and panels are not part of the first screen's JavaScript), the
 * join prompt for a room the user is not in (from a link or the URL), or a
 * welcome panel when no room is selected. While the room's code loads the
 * pane shows a spinner; the code is fetched in the background once the
 * room list has rows (preloadRoomPane), so opening a room rarely waits.
 */
import { lazy, Suspense, useEffect } from "react";
import { Spinner } from "../../components/Spinner";
import { useT } from "../../i18n/useT";
import type { ClientViewModel } from "../../state/ClientViewModel";
import { useObservable } from "../../state/useObservable";
import styles from "./ClientShell.module.css";
import type * as RoomPaneModule from "./RoomPane";

let roomPaneModule: Promise<typeof RoomPaneModule> | null = null;

/** Starts loading the room pane's code (once); the room list calls it when it has rows. */
function preloadRoomPane(): Promise<typeof RoomPaneModule> {
  roomPaneModule ??= import("./RoomPane");
  return roomPaneModule;
}

const RoomScreen = lazy(() => preloadRoomPane().then((m) => ({ default: m.RoomScreen })));
const JoinPrompt = lazy(() => preloadRoomPane().then((m) => ({ default: m.JoinPrompt })));

/** How long the preload waits for an idle moment at most. */
const PRELOAD_IDLE_TIMEOUT_MS = 3_000;

/** Runs `work` when the browser is idle (the start's background loading done), or after a timer; returns the cancel. */
function whenIdle(work: () => void): () => void {
  if (typeof window.requestIdleCallback === "function") {
    const id = window.requestIdleCallback(work, { timeout: PRELOAD_IDLE_TIMEOUT_MS });
    return () => window.cancelIdleCallback(id);
  }
  const id = setTimeout(work, 500);
  return () => clearTimeout(id);
}

/**
 * Preloads the room pane once the room list has rows and the browser is
 * idle (its parse and first run take a few tens of ms, kept out of the
 * moments just after the rows show): the first screen's JavaScript stays
 * the room list's, and a room opened a moment later finds its code there.
 */
function usePreloadWhenListed(client: ClientViewModel): void {
  useEffect(() => {
    let cancel: (() => void) | undefined;
    const check = (): boolean => {
      if (client.roomList.items.getSnapshot().length === 0) return false;
      cancel = whenIdle(() => void preloadRoomPane());
      return true;
    };
    if (check()) return () => cancel?.();
    const stop = client.roomList.items.subscribe(() => {
      if (cancel === undefined && check()) stop();
    });
    return () => {
      stop();
      cancel?.();
    };
  }, [client]);
}

/** What the pane shows while the room's code loads. */
function Loading(): React.JSX.Element {
  const common = useT("common");
  return (
    <section className={styles.welcome} aria-busy="true">
      <Spinner size="lg" label={common("loading")} />
    </section>
  );
}

export function RoomView({ client }: { client: ClientViewModel }): React.JSX.Element {
  const t = useT("shell");
  const room = useObservable(client.room);
  const prompt = useObservable(client.router.prompt);
  usePreloadWhenListed(client);
  if (prompt !== null)
    return (
      <Suspense fallback={<Loading />}>
        <JoinPrompt key={prompt.target.roomIdOrAlias} vm={prompt} onCancel={() => client.router.goHome()} />
      </Suspense>
    );
  if (room === null) {
    return (
      <section className={styles.welcome} aria-label={t("welcome_label")}>
        <h2>{t("welcome_title")}</h2>
        <p>{t("welcome_body")}</p>
      </section>
    );
  }
  const close = (): void => client.roomList.select(null);
  return (
    <Suspense fallback={<Loading />}>
      <RoomScreen
        key={room.roomId}
        vm={room}
        actions={client.roomList.actions}
        onBack={close}
        onOpenRoom={(id) => client.roomList.selectWhenJoined(id)}
        onLink={(href) => client.router.openLink(href)}
      />
    </Suspense>
  );
}
