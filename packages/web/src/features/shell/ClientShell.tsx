/**
 * The signed-in app: spaces bar, room list and main pane in a responsive
 * grid (three columns on desktop, list or room on phones), the sync banner,
 * the account menu (theme, sign out), and the Ctrl+K shortcut to the room
 * search.
 */
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { Avatar } from "../../components/Avatar";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { FolderIcon, SignOutIcon } from "../../components/icons";
import { useT } from "../../i18n/useT";
import type { ClientViewModel } from "../../state/ClientViewModel";
import { browserHashLocation } from "../../state/routing/Router";
import type { ThemeViewModel } from "../../state/ThemeViewModel";
import { useObservable } from "../../state/useObservable";
import { callsOf } from "../../state/calls/calls";
import { ActiveCall, IncomingCalls } from "../calls/CallLayer";
import { CallsContext } from "../calls/CallsContext";
import { WidgetsContext } from "../widgets/WidgetsContext";
import { ElementCallContext } from "../calls/ElementCallContext";
import { ElementCallLayer } from "../calls/ElementCallLayer";
import { elementCallsOf } from "../../state/widgets/elementCallsOf";
import { SettingsButton } from "../settings/SettingsButton";
import { MediaContext } from "../timeline/MediaContext";
import styles from "./ClientShell.module.css";
import { ConnectionBanner } from "./ConnectionBanner";
import { RoomList } from "./RoomList";
import { RoomView } from "./RoomView";
import { SpacesBar } from "./SpacesBar";
import { ThemeToggle } from "./ThemeToggle";

// Loaded with the first verification request: not part of the first screen's JavaScript.
const VerificationDialog = lazy(() =>
  import("../verification/VerificationDialog").then((m) => ({ default: m.VerificationDialog })),
);

// Widgets (their frames, prompts and picture-in-picture) are their own chunk, fetched once a room opens.
const ShellWidgets = lazy(() => import("../widgets/ShellWidgets").then((m) => ({ default: m.ShellWidgets })));

// The Files view is its own chunk, fetched when it is first opened.
const FilesView = lazy(() => import("../files/FilesView").then((m) => ({ default: m.FilesView })));

/** The Files view over the shell, with its close button. */
function FilesOverlay({
  client,
  onClose,
}: {
  client: ClientViewModel;
  onClose: () => void;
}): React.JSX.Element {
  const t = useT("files");
  return (
    <div className={styles.filesOverlay} role="dialog" aria-label={t("title")}>
      <Button variant="ghost" size="sm" onClick={onClose}>
        {t("close")}
      </Button>
      <Suspense fallback={null}>
        <FilesView client={client} />
      </Suspense>
    </div>
  );
}

/** The verification dialog, fetched when a verification starts. */
function Verification({ client }: { client: ClientViewModel }): React.JSX.Element | null {
  const active = useObservable(client.verification.active);
  if (active === null) return null;
  return (
    <Suspense fallback={null}>
      <VerificationDialog center={client.verification} />
    </Suspense>
  );
}

/** "@alice:example.org" → "alice": the name shown until a display name is known. */
function localpartOf(userId: string): string {
  const end = userId.indexOf(":");
  return userId.slice(1, end > 0 ? end : undefined);
}

export function ClientShell({
  client,
  theme,
}: {
  client: ClientViewModel;
  theme: ThemeViewModel;
}): React.JSX.Element {
  const t = useT("shell");
  const c = useT("common");
  const search = useRef<HTMLInputElement>(null);
  const selected = useObservable(client.roomList.selected);
  const prompt = useObservable(client.router.prompt);
  const displayName = useObservable(client.displayName);
  const [confirmLogout, setConfirmLogout] = useState(false);
  const calls = callsOf(client);
  const elementCalls = elementCallsOf(client);
  const [leaving, setLeaving] = useState(false);
  const [filesOpen, setFilesOpen] = useState(false);
  const f = useT("files");
  const [widgetsOn, setWidgetsOn] = useState(false);
  useEffect(() => {
    if (selected !== null) setWidgetsOn(true);
  }, [selected]);

  // File uploads a reload cut off go on by themselves (a lazy chunk, after the first screen).
  useEffect(() => {
    void import("../../state/files/resumeUploads")
      .then((m) => m.resumeUploads(client.client))
      .catch(() => undefined);
  }, [client]);

  // The URL hash follows the open room, and back/forward or a pasted link opens one.
  useEffect(() => client.router.attach(browserHashLocation(window)), [client]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "k") {
        e.preventDefault();
        search.current?.focus();
        search.current?.select();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  return (
    <MediaContext.Provider value={client.media}>
      <CallsContext.Provider value={calls}>
        <WidgetsContext.Provider value={client}>
          <ElementCallContext.Provider value={elementCalls}>
            <div className={`${styles.shell} ${selected !== null || prompt !== null ? styles.roomOpen : ""}`}>
              <SpacesBar client={client} />
              <aside className={styles.sidebar} aria-label={t("room_list")}>
                <div className={styles.account}>
                  <Avatar id={client.userId} name={displayName ?? localpartOf(client.userId)} size={32} />
                  <div className={styles.who} title={client.userId} data-testid="account-name">
                    <span className={styles.displayName}>{displayName ?? localpartOf(client.userId)}</span>
                    <span className={styles.userId}>{client.userId}</span>
                  </div>
                  <ThemeToggle theme={theme} />
                  <SettingsButton client={client} theme={theme} />
                  <Button
                    variant="ghost"
                    size="icon"
                    aria-label={t("sign_out")}
                    title={t("sign_out")}
                    onClick={() => setConfirmLogout(true)}
                  >
                    <SignOutIcon />
                  </Button>
                </div>
                <div className={styles.places}>
                  <Button
                    variant="ghost"
                    size="sm"
                    data-testid="open-files"
                    onClick={() => setFilesOpen(true)}
                  >
                    <FolderIcon />
                    {f("button")}
                  </Button>
                </div>
                <ConnectionBanner client={client} />
                <RoomList ref={search} list={client.roomList} />
              </aside>
              <main className={styles.main}>
                <ActiveCall calls={calls} selectedRoomId={selected} />
                {elementCalls !== null && (
                  <ElementCallLayer
                    calls={elementCalls}
                    selectedRoomId={selected}
                    theme={theme.choice}
                    roomName={(roomId) => client.client.rooms.find(roomId)?.getSnapshot().name.name ?? roomId}
                    openRoom={(roomId) => client.roomList.select(roomId)}
                  />
                )}
                <RoomView client={client} />
              </main>
            </div>
            {widgetsOn && (
              <Suspense fallback={null}>
                <ShellWidgets client={client} />
              </Suspense>
            )}
            <Verification client={client} />
            <IncomingCalls calls={calls} />
            {filesOpen && <FilesOverlay client={client} onClose={() => setFilesOpen(false)} />}
            <Dialog
              open={confirmLogout}
              title={t("sign_out_title")}
              onClose={() => setConfirmLogout(false)}
              actions={
                <>
                  <Button variant="secondary" onClick={() => setConfirmLogout(false)}>
                    {c("cancel")}
                  </Button>
                  <Button
                    variant="danger"
                    busy={leaving}
                    onClick={() => {
                      setLeaving(true);
                      void client.logout().finally(() => setLeaving(false));
                    }}
                  >
                    {t("sign_out")}
                  </Button>
                </>
              }
            >
              <p>
                {t("sign_out_body")} {client.isGuest ? t("sign_out_guest") : ""}
              </p>
            </Dialog>
          </ElementCallContext.Provider>
        </WidgetsContext.Provider>
      </CallsContext.Provider>
    </MediaContext.Provider>
  );
}
