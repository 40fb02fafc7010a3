/**
 * The embedded room view, its own chunk: the app's Timeline and
 * RoomComposer over the room's view model, under a header the host may
 * hide, with media loaded through the host.
 */
import { useCallback } from "react";
import type { RoomViewModel } from "../state/RoomViewModel";
import type { HostMedia } from "../state/embedded/HostMedia";
import { MediaContext } from "../features/timeline/MediaContext";
import { useObservable } from "../state/useObservable";
import { RoomComposer } from "../features/composer/RoomComposer";
import { Timeline } from "../features/timeline/Timeline";
import styles from "./Embedded.module.css";

export default function RoomPage({
  vm,
  media,
  hideHeader,
}: {
  vm: RoomViewModel;
  /** Null when the host gives no media: images then stay placeholders. */
  media: HostMedia | null;
  hideHeader: boolean;
}): React.JSX.Element {
  const room = useObservable(vm.room);
  const onReply = useCallback((id: string) => vm.reply(id), [vm]);
  const onEdit = useCallback((id: string) => vm.edit(id), [vm]);
  return (
    <MediaContext.Provider value={media}>
      <section className={styles.page} aria-label={room.name.name}>
        {!hideHeader && (
          <header className={styles.header}>
            <h1 className={styles.title}>{room.name.name}</h1>
          </header>
        )}
        <Timeline vm={vm.timeline} onReply={onReply} onEdit={onEdit} />
        <RoomComposer room={vm} />
      </section>
    </MediaContext.Provider>
  );
}
