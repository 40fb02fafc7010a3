/**
 * The main pane: the selected room's header (avatar, name, topic) above its
 * timeline, or a welcome panel when no room is selected. On phones the
 * header has a back button to the room list.
 */
import { Avatar } from "../../components/Avatar";
import { Button } from "../../components/Button";
import type { ClientViewModel } from "../../state/ClientViewModel";
import type { TimelineViewModel } from "../../state/TimelineViewModel";
import { useObservable } from "../../state/useObservable";
import { Timeline } from "../timeline/Timeline";
import styles from "./ClientShell.module.css";

function RoomPane({ vm, onBack }: { vm: TimelineViewModel; onBack: () => void }): React.JSX.Element {
  const room = useObservable(vm.snapshot);
  const topic = room.state.content("m.room.topic")?.["topic"];
  const nameOf = (id: string): string => room.members.get(id)?.name ?? id;
  return (
    <section className={styles.room} aria-label={room.name.name}>
      <header className={styles.roomHeader}>
        <Button variant="ghost" size="sm" className={styles.back} aria-label="Back to rooms" onClick={onBack}>
          ←
        </Button>
        <Avatar id={room.roomId} name={room.name.name} size={36} />
        <div className={styles.roomTitle}>
          <h2 className={styles.roomName}>{room.name.name}</h2>
          {typeof topic === "string" && topic !== "" && <p className={styles.topic}>{topic}</p>}
        </div>
        {room.isEncrypted && (
          <span className={styles.e2ee} title="End-to-end encrypted">
            Encrypted
          </span>
        )}
      </header>
      <Timeline key={vm.roomId} vm={vm} nameOf={nameOf} />
    </section>
  );
}

export function RoomView({ client }: { client: ClientViewModel }): React.JSX.Element {
  const timeline = useObservable(client.timeline);
  if (timeline === null) {
    return (
      <section className={styles.welcome} aria-label="Welcome">
        <h2>Welcome to Lattice</h2>
        <p>Pick a room on the left to read it. Press Ctrl+K to search your rooms.</p>
      </section>
    );
  }
  return <RoomPane vm={timeline} onBack={() => client.roomList.select(null)} />;
}
