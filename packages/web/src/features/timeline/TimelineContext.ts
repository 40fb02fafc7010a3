/**
 * What every row of the timeline needs without prop threading: the
 * timeline view model and the callbacks of the message action bar, which
 * RoomView routes to the composer (reply, edit), the threads panel and the
 * report flow. Mention pills read the room's members from
 * MentionSourceContext, which RoomPane provides for the whole room (the
 * thread panel included).
 */
import { createContext, useContext } from "react";
import type { TimelineViewModel } from "../../state/TimelineViewModel";
import { AppStateError } from "../../state/errors";

/** The action bar's callbacks; a missing one hides its button. */
export interface TimelineCallbacks {
  onReply?: ((eventId: string) => void) | undefined;
  onEdit?: ((eventId: string) => void) | undefined;
  onOpenThread?: ((eventId: string) => void) | undefined;
  onReport?: ((eventId: string) => void) | undefined;
  /** What shows under a message (the thread summary of a root); rendering nothing is fine. */
  renderUnder?: ((eventId: string) => React.ReactNode) | undefined;
}

export interface TimelineContextValue extends TimelineCallbacks {
  vm: TimelineViewModel;
}

export const TimelineContext = createContext<TimelineContextValue | null>(null);

/** The timeline's context; rows render only inside a Timeline. */
export function useTimeline(): TimelineContextValue {
  const value = useContext(TimelineContext);
  if (value === null) throw new AppStateError("useTimeline outside a Timeline");
  return value;
}

/** What a mention pill reads: the reader, the room's members and their avatars. */
export type MentionSource = Pick<TimelineViewModel, "userId" | "avatarOf" | "snapshot">;

/** The room's mention source; absent outside a room (pills then show the link's text). */
export const MentionSourceContext = createContext<MentionSource | null>(null);
