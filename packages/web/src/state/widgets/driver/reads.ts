/**
 * read_events (timeline and state), read_relations and
 * read_room_account_data on the SDK. Timeline reads page back from the
 * live end with /messages (at most MAX_PAGES pages, SPEC §9's 10
 * paginations per step) and run every page through the room's decryptor:
 * a widget sees clear events from encrypted rooms, and never ciphertext.
 * The host filters the results again by the approved capabilities.
 */
import type { RelationsResult, RoomAccountData, RoomEvent } from "@lattice/widget-api";
import type { ClientEventWithoutRoomId } from "../../../sdk";
import { fetchMessages, fetchRelations } from "../../../sdk";
import type { DriverContext } from "./context";
import { defaultRoom, isCiphertext, toWidgetEvent } from "./context";

/** Pages read back per request at most (SPEC §9: 10 paginations per step). */
export const MAX_PAGES = 10;
/** Events asked per page. */
const PAGE_SIZE = 100;

async function decrypted(
  ctx: DriverContext,
  roomId: string,
  events: readonly ClientEventWithoutRoomId[],
): Promise<ClientEventWithoutRoomId[]> {
  const room = ctx.client.rooms.find(roomId);
  const clear = room ? await room.decryptEvents(events) : [...events];
  return clear.filter((e) => !isCiphertext(e));
}

/**
 * Timeline events of `type` (with `msgtype`; with `stateKey`, state events
 * of that key, else only non-state events), newest first, at most `limit`,
 * stopping at the event `since`.
 */
export async function readRoomTimeline(
  ctx: DriverContext,
  roomId: string,
  type: string,
  msgtype: string | undefined,
  stateKey: string | undefined,
  limit: number,
  since: string | undefined,
): Promise<RoomEvent[]> {
  const out: RoomEvent[] = [];
  let from: string | undefined;
  for (let page = 0; page < MAX_PAGES && out.length < limit; page++) {
    const res = await fetchMessages(ctx.client.http, roomId, {
      dir: "b",
      limit: PAGE_SIZE,
      ...(from !== undefined ? { from } : {}),
    });
    for (const event of await decrypted(ctx, roomId, res.chunk)) {
      if (event.event_id === since) return out;
      if (event.type !== type) continue;
      if (stateKey === undefined ? event.state_key !== undefined : event.state_key !== stateKey) continue;
      if (msgtype !== undefined && event.content["msgtype"] !== msgtype) continue;
      out.push(toWidgetEvent(event, roomId));
      if (out.length >= limit) return out;
    }
    if (res.end === undefined || res.chunk.length === 0) break;
    from = res.end;
  }
  return out;
}

/** Current state events of `type` (one key, or all keys) from the room model. */
export function readRoomState(
  ctx: DriverContext,
  roomId: string,
  type: string,
  stateKey: string | undefined,
): Promise<RoomEvent[]> {
  const state = ctx.client.rooms.find(roomId)?.getSnapshot().state;
  if (!state) return Promise.resolve([]);
  const entries =
    stateKey === undefined ? [...state.ofType(type).values()] : [state.get(type, stateKey)].filter((e) => e);
  const out: RoomEvent[] = [];
  for (const entry of entries) {
    // Stripped state (an invite) has no event id: nothing a widget can rely on.
    if (entry === undefined || !("event_id" in entry) || typeof entry.event_id !== "string") continue;
    out.push(toWidgetEvent(entry, roomId));
  }
  return Promise.resolve(out);
}

/** Room account data of `type` in the widget's room (or the viewed one). */
export function readRoomAccountData(ctx: DriverContext, type: string): Promise<RoomAccountData[]> {
  const roomId = ctx.roomId ?? ctx.viewedRoomId();
  if (roomId === null) return Promise.resolve([]);
  const event = ctx.client.rooms.find(roomId)?.getSnapshot().accountData.get(type);
  if (!event) return Promise.resolve([]);
  return Promise.resolve([
    { type, room_id: roomId, content: JSON.parse(JSON.stringify(event.content)) as Record<string, unknown> },
  ]);
}

/** Relations of an event; in an encrypted room the type filter runs after decryption. */
export async function readEventRelations(
  ctx: DriverContext,
  eventId: string,
  roomId: string | undefined,
  relType: string | undefined,
  eventType: string | undefined,
  from: string | undefined,
  to: string | undefined,
  limit: number | undefined,
  direction: "f" | "b" | undefined,
): Promise<RelationsResult> {
  const room = roomId ?? defaultRoom(ctx);
  const encrypted = ctx.client.rooms.find(room)?.getSnapshot().isEncrypted === true;
  // The server only sees m.room.encrypted in an encrypted room: ask for that, filter on the clear type.
  const serverType = eventType !== undefined && encrypted ? "m.room.encrypted" : eventType;
  const res = await fetchRelations(ctx.client.http, room, eventId, {
    ...(relType !== undefined ? { relType } : {}),
    ...(relType !== undefined && serverType !== undefined ? { eventType: serverType } : {}),
    ...(from !== undefined ? { from } : {}),
    ...(to !== undefined ? { to } : {}),
    ...(limit !== undefined ? { limit } : {}),
    ...(direction !== undefined ? { dir: direction } : {}),
  });
  const chunk = (await decrypted(ctx, room, res.chunk))
    .filter((e) => eventType === undefined || e.type === eventType)
    .map((e) => toWidgetEvent(e, room));
  return {
    chunk,
    ...(res.prev_batch !== undefined ? { prevBatch: res.prev_batch } : {}),
    ...(res.next_batch !== undefined ? { nextBatch: res.next_batch } : {}),
  };
}
