/**
 * Older history for the bench's loopback server (`GET /rooms/{id}/messages`):
 * what a client fetches when a room is opened and scrolled back, for the
 * room model memory test. Every page is derived from the room id and the
 * token alone (no state): `limit` text messages (at most 100) older than
 * the fixture's timeline, then `end: old{n+1}`, and no `end` after the last
 * page, so history runs out as it does on a real server.
 */
import { BASE_TS, SERVER_NAME } from "./fixture-world";

/** Pages of older history each room has. */
export const HISTORY_PAGES = 4;
const MAX_LIMIT = 100;
/** Just before the fixture's first event. */
const NEWEST_TS = BASE_TS - 1;

/** One /messages answer, as JSON. */
export function historyPage(roomId: string, from: string | null, limit: number): Record<string, unknown> {
  const page = Number(/^old(\d+)$/.exec(from ?? "")?.[1] ?? 0);
  const size = Math.min(Math.max(1, Math.floor(limit) || 10), MAX_LIMIT);
  const chunk =
    page >= HISTORY_PAGES
      ? []
      : Array.from({ length: size }, (_, i) => ({
          event_id: `$old-${page}-${i}-${roomId.slice(1).replace(/[^A-Za-z0-9]/g, "_")}`,
          room_id: roomId,
          type: "m.room.message",
          sender: `@history${i % 7}:${SERVER_NAME}`,
          origin_server_ts: NEWEST_TS - page * 1000 - i,
          content: { msgtype: "m.text", body: `older message ${page}.${i} in the history of this room` },
        }));
  return {
    start: from ?? "old0",
    chunk,
    ...(page + 1 < HISTORY_PAGES ? { end: `old${page + 1}` } : {}),
  };
}
