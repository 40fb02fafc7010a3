/**
 * The open room's polite live region: screen readers hear "Bob: hello"
 * when a message arrives (throttled; never one's own, never history). The
 * text comes from the room's NewMessageAnnouncer; the element is visually
 * hidden.
 */
import { announcerOf } from "../../state/rooms/NewMessageAnnouncer";
import type { RoomViewModel } from "../../state/RoomViewModel";
import { useObservable } from "../../state/useObservable";

export function LiveAnnouncer({ room }: { room: RoomViewModel }): React.JSX.Element {
  const text = useObservable(announcerOf(room).text);
  return (
    <div
      className="visually-hidden"
      role="status"
      aria-live="polite"
      aria-atomic="true"
      data-testid="live-region"
    >
      {text}
    </div>
  );
}
