/**
 * The thread index of a fixture: every thread root with its room and its
 * replies (from the initial sync and all batches). matrix-js-sdk fetches each
 * thread root (GET /rooms/{roomId}/event/{eventId}) and its relations (GET
 * /rooms/{roomId}/relations/{eventId}) when it builds a thread, whatever its
 * threadSupport option says, so the loopback server answers those from here
 * the way a homeserver would.
 */
import type { ClientEvent, ClientEventWithoutRoomId } from "@lattice/sdk/api/types/events";
import type { SyncResponse } from "@lattice/sdk/api/types/sync";

export interface ThreadEntry {
  /** The root, with room_id and the bundled m.thread aggregation. */
  root: ClientEvent;
  /** Replies, oldest first. */
  replies: ClientEvent[];
}

/** Thread roots by event id. */
export type ThreadIndex = Record<string, ThreadEntry>;

function threadRootOf(event: ClientEventWithoutRoomId): string | undefined {
  const relation = event.content["m.relates_to"];
  if (typeof relation !== "object" || relation === null) return undefined;
  const { rel_type, event_id } = relation as { rel_type?: unknown; event_id?: unknown };
  return rel_type === "m.thread" && typeof event_id === "string" ? event_id : undefined;
}

/** Builds the index from the initial sync and the batches, in order. */
export function buildThreadIndex(responses: readonly SyncResponse[]): ThreadIndex {
  const events = new Map<string, ClientEvent>();
  const replies = new Map<string, ClientEvent[]>();
  for (const response of responses) {
    for (const [roomId, room] of Object.entries(response.rooms?.join ?? {})) {
      for (const event of room.timeline?.events ?? []) {
        const withRoom: ClientEvent = { ...event, room_id: roomId };
        const root = threadRootOf(event);
        if (root === undefined) events.set(event.event_id, withRoom);
        else replies.set(root, [...(replies.get(root) ?? []), withRoom]);
      }
    }
  }
  const index: ThreadIndex = Object.create(null) as ThreadIndex;
  for (const [rootId, list] of replies) {
    const root = events.get(rootId);
    const latest = list[list.length - 1];
    if (!root || !latest) continue;
    const unsigned = {
      ...root.unsigned,
      "m.relations": {
        "m.thread": { latest_event: latest, count: list.length, current_user_participated: false },
      },
    };
    index[rootId] = { root: { ...root, unsigned }, replies: list };
  }
  return index;
}
