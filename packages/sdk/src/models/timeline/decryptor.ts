/**
 * The decrypt hook of the room model: events fetched outside sync
 * (/messages, /context, /relations, /threads, a single event) pass through
 * an injected EventDecryptor before they enter a model, and late
 * decryptions (a key that arrived afterwards) come back as
 * DecryptedEventUpdates applied in place. The models define this narrow
 * interface; the client plugs the crypto layer in (models never import
 * crypto).
 */
import type { ClientEventWithoutRoomId } from "../../api/types/events";
import { isJsonObject } from "../json";

/** Turns a room's m.room.encrypted events into clear ones (or undecryptable stand-ins). */
export interface EventDecryptor {
  /**
   * Returns the events in the same order, encrypted ones replaced by their
   * clear form or by the '** Unable to decrypt: ... **' stand-in; never
   * throws for an undecryptable event.
   */
  decryptEvents(
    roomId: string,
    events: readonly ClientEventWithoutRoomId[],
  ): Promise<ClientEventWithoutRoomId[]>;
}

/** An event that decrypted late: its clear form replaces the stand-in wherever it is held. */
export interface DecryptedEventUpdate {
  readonly roomId: string;
  readonly eventId: string;
  readonly event: ClientEventWithoutRoomId;
}

/** The decryptor of a client without crypto: leaves events as they are. */
export const noEventDecryptor: EventDecryptor = {
  decryptEvents: (_roomId, events) => Promise.resolve([...events]),
};

/** Whether an event is still in its encrypted wire form. */
export function isEncryptedEvent(event: ClientEventWithoutRoomId): boolean {
  return event.type === "m.room.encrypted";
}

/** The bundled thread summary's latest event of a root, when it is encrypted. */
function encryptedBundledLatest(event: ClientEventWithoutRoomId): ClientEventWithoutRoomId | undefined {
  const relations = event.unsigned?.["m.relations"];
  const thread = isJsonObject(relations) ? relations["m.thread"] : undefined;
  const latest = isJsonObject(thread) ? thread["latest_event"] : undefined;
  if (!isJsonObject(latest) || latest["type"] !== "m.room.encrypted") return undefined;
  if (typeof latest["event_id"] !== "string" || !isJsonObject(latest["content"])) return undefined;
  return latest as unknown as ClientEventWithoutRoomId;
}

/** A root with its bundled latest thread event swapped for `latest`. */
function withBundledLatest(
  root: ClientEventWithoutRoomId,
  latest: ClientEventWithoutRoomId,
): ClientEventWithoutRoomId {
  const relations = root.unsigned?.["m.relations"] as Record<string, unknown>;
  const thread = relations["m.thread"] as Record<string, unknown>;
  return {
    ...root,
    unsigned: {
      ...root.unsigned,
      "m.relations": { ...relations, "m.thread": { ...thread, latest_event: latest } },
    },
  };
}

/**
 * Runs a page of events through the decryptor: the encrypted events and
 * the encrypted latest events bundled in thread roots (the thread list's
 * last reply). A page without any passes through without calling it, so
 * an unencrypted room never wakes the crypto engine.
 */
export async function decryptPage(
  decryptor: EventDecryptor | undefined,
  roomId: string,
  events: readonly ClientEventWithoutRoomId[],
): Promise<ClientEventWithoutRoomId[]> {
  const bundled = events.map(encryptedBundledLatest);
  if (decryptor === undefined || (!events.some(isEncryptedEvent) && bundled.every((b) => b === undefined)))
    return [...events];
  const latest = bundled.filter((b): b is ClientEventWithoutRoomId => b !== undefined);
  const clear = await decryptor.decryptEvents(roomId, [...events, ...latest]);
  const out = clear.slice(0, events.length);
  let next = events.length;
  return out.map((event, i) => {
    if (bundled[i] === undefined) return event;
    const replacement = clear[next++];
    return replacement !== undefined ? withBundledLatest(event, replacement) : event;
  });
}
