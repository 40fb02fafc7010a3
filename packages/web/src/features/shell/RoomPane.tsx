/**
 * The open room's pane, loaded lazily (React.lazy in RoomView) so the first
 * screen's JavaScript stops at the room list: the room's header (avatar,
 * name, topic, an actions area) above its timeline and composer, with the
 * right-hand panel (threads, a thread, members, a user, settings) beside
 * them, driven by RoomViewModel.panel; the invite gate and the join prompt;
 * links to rooms, events and users open in the app; a polite live region
 * announces new messages.
 *
 * Extending it: a header button is one line in `HeaderActions`, a panel is
 * one case in `RightPanel`, the composer is one line under the timeline.
 */
import { useCallback, useContext } from "react";
import { Avatar } from "../../components/Avatar";
import { Button } from "../../components/Button";
import { roomAvatarSeedOf } from "../../state/avatarColour";
import { BackIcon } from "../../components/icons";
import { useT } from "../../i18n/useT";
import type { RoomPanel, RoomViewModel } from "../../state/RoomViewModel";
import type { RoomActionsViewModel } from "../../state/rooms/RoomActionsViewModel";
import { roomExtrasOf } from "../../state/people/RoomExtras";
import { useObservable } from "../../state/useObservable";
import { CallButtons } from "../calls/CallButtons";
import { CallsContext } from "../calls/CallsContext";
import { MemberPanel } from "../people/MemberPanel";
import { MembersButton } from "../people/MembersButton";
import { UserPanel } from "../people/UserPanel";
import { SettingsButton } from "../room-settings/SettingsButton";
import { InviteGate } from "../rooms/InviteView";
import { LiveAnnouncer } from "../rooms/LiveAnnouncer";
import { Timeline } from "../timeline/Timeline";
import { RoomComposer } from "../composer/RoomComposer";
import { ThreadsButton } from "../threads/ThreadsButton";
import { ThreadsPanel } from "../threads/ThreadsPanel";
import { ThreadSummary } from "../threads/ThreadSummary";
import { useAvatarUrl } from "../timeline/media/useMedia";
import { MentionSourceContext } from "../timeline/TimelineContext";
import { RoomAppsButton, RoomAppsPanel } from "../widgets/RoomApps";
import { RoomWidgetsSide, RoomWidgetsTop, useRoomMaximised } from "../widgets/RoomWidgets";
import styles from "./ClientShell.module.css";
import layout from "./RoomView.module.css";

export { JoinPrompt } from "../rooms/JoinPrompt";

/** Buttons at the right of the room header (threads, members, settings...). */
function HeaderActions({ vm }: { vm: RoomViewModel }): React.JSX.Element {
  const calls = useContext(CallsContext);
  return (
    <div className={layout.headerActions}>
      {calls !== null && <CallButtons calls={calls} roomId={vm.roomId} room={vm.room} />}
      <ThreadsButton room={vm} />
      <RoomAppsButton room={vm} />
      <MembersButton vm={vm} />
      <SettingsButton vm={vm} />
    </div>
  );
}

/** What the right-hand panel shows: one case per panel kind. */
function panelContent(panel: NonNullable<RoomPanel>, vm: RoomViewModel): React.JSX.Element | null {
  switch (panel.kind) {
    case "threads":
    case "thread":
      return <ThreadsPanel room={vm} panel={panel} />;
    case "members":
      return <MemberPanel vm={vm} />;
    case "user":
      return <UserPanel vm={vm} userId={panel.userId} />;
    case "widgets":
      return <RoomAppsPanel room={vm} />;
    default:
      void vm;
      return null;
  }
}

/** The right-hand panel of the room, when one is open. */
function RightPanel({ vm }: { vm: RoomViewModel }): React.JSX.Element | null {
  const panel = useObservable(vm.panel);
  const common = useT("common");
  if (panel === null) return null;
  return (
    <aside className={layout.panel} aria-label={panel.kind} data-panel={panel.kind}>
      <Button
        variant="ghost"
        size="sm"
        className={layout.panelClose}
        onClick={() => vm.closePanel()}
        aria-label={common("close")}
      >
        ✕
      </Button>
      {panelContent(panel, vm)}
    </aside>
  );
}

/**
 * A click on a link that names a room, an event or a user (matrix.to,
 * matrix:, #/room/) opens it in the app; modified clicks and other links
 * keep the browser's behaviour.
 */
function linkClick(openLink: (href: string) => boolean) {
  return (e: React.MouseEvent): void => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const link = (e.target as Element).closest?.("a[href]");
    const href = link?.getAttribute("href");
    if (href !== null && href !== undefined && openLink(href)) e.preventDefault();
  };
}

function RoomPane({
  vm,
  onBack,
  onLink,
}: {
  vm: RoomViewModel;
  onBack: () => void;
  onLink: (href: string) => boolean;
}): React.JSX.Element {
  const room = useObservable(vm.timeline.snapshot);
  const common = useT("common");
  const t = useT("timeline");
  const avatar = useAvatarUrl(room.avatarUrl);
  const topic = room.state.content("m.room.topic")?.["topic"];
  const onReply = useCallback((id: string) => vm.reply(id), [vm]);
  const onEdit = useCallback((id: string) => vm.edit(id), [vm]);
  const onOpenThread = useCallback((id: string) => vm.openThread(id), [vm]);
  const renderUnder = useCallback((id: string) => <ThreadSummary room={vm} rootId={id} />, [vm]);
  const onReport = useCallback((id: string) => vm.report(id), [vm]);
  const maximised = useRoomMaximised(vm);
  return (
    <MentionSourceContext.Provider value={vm.timeline}>
      <section className={styles.room} aria-label={room.name.name} onClick={linkClick(onLink)}>
        <LiveAnnouncer room={vm} />
        <header className={styles.roomHeader}>
          <Button
            variant="ghost"
            size="sm"
            className={styles.back}
            aria-label={common("back_to_rooms")}
            onClick={onBack}
          >
            <BackIcon />
          </Button>
          <Avatar
            id={roomAvatarSeedOf(room, vm.timeline.userId)}
            name={room.name.name}
            url={avatar}
            size={36}
          />
          <div className={styles.roomTitle}>
            <h2 className={styles.roomName}>{room.name.name}</h2>
            {typeof topic === "string" && topic !== "" && <p className={styles.topic}>{topic}</p>}
          </div>
          {room.isEncrypted && (
            <span className={styles.e2ee} title={t("shield_encrypted")}>
              {t("shield_encrypted")}
            </span>
          )}
          <HeaderActions vm={vm} />
        </header>
        <div className={layout.body}>
          <div className={layout.column}>
            <RoomWidgetsTop room={vm} />
            {!maximised && (
              <Timeline
                vm={vm.timeline}
                onReply={onReply}
                onEdit={onEdit}
                onOpenThread={onOpenThread}
                renderUnder={renderUnder}
                onReport={vm.canReport ? onReport : undefined}
              />
            )}
            <RoomComposer room={vm} />
          </div>
          <RoomWidgetsSide room={vm} />
          <RightPanel vm={vm} />
        </div>
      </section>
    </MentionSourceContext.Provider>
  );
}

/** The open room behind its invite gate (an invite shows accept/decline first). */
export function RoomScreen({
  vm,
  actions,
  onBack,
  onOpenRoom,
  onLink,
}: {
  vm: RoomViewModel;
  actions: RoomActionsViewModel | null;
  onBack: () => void;
  /** Selects a room once joined (a new DM from the user panel). */
  onOpenRoom: (roomId: string) => void;
  onLink: (href: string) => boolean;
}): React.JSX.Element {
  // The room's people and settings view models, made once per room view model before its children read them.
  roomExtrasOf(vm, { openRoom: onOpenRoom, closeRoom: onBack });
  return (
    <InviteGate room={vm.room} actions={actions} onDone={onBack}>
      <RoomPane vm={vm} onBack={onBack} onLink={onLink} />
    </InviteGate>
  );
}
