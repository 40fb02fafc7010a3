/**
 * The right panel's "threads" and "thread" kinds, as RoomView mounts them
 * (one case): the thread list, or one open thread with a way back to the
 * list.
 */
import { threadViewOf } from "../../state/ComposerForRoom";
import type { ComposerRoomHost } from "../../state/ComposerForRoom";
import { threadsOf } from "../../state/ThreadsViewModel";
import { useObservable } from "../../state/useObservable";
import { ThreadList } from "./ThreadList";
import { ThreadView } from "./ThreadView";

/** What the panel needs of the room view model. */
export interface ThreadsPanelHost extends ComposerRoomHost {
  openPanel(panel: { kind: "threads" } | { kind: "thread"; rootId: string }): void;
}

export function ThreadsPanel({
  room,
  panel,
}: {
  room: ThreadsPanelHost;
  panel: { kind: "threads" } | { kind: "thread"; rootId: string };
}): React.JSX.Element {
  const snapshot = useObservable(room.room);
  if (panel.kind === "threads")
    return (
      <ThreadList vm={threadsOf(room)} onOpen={(rootId) => room.openPanel({ kind: "thread", rootId })} />
    );
  return (
    <ThreadView
      key={panel.rootId}
      vm={threadViewOf(room, panel.rootId)}
      nameOf={(id) => snapshot.members.get(id)?.name ?? id}
      onBack={() => room.openPanel({ kind: "threads" })}
    />
  );
}
