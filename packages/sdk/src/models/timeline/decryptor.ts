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

/** Where an encrypted event can sit inside another's bundled aggregations (unsigned["m.relations"]). */
type BundledSlot = "thread" | "replace";

/** An encrypted event bundled in `event` at `slot`: the thread's latest reply, or the latest edit. */
function encryptedBundled(
  event: ClientEventWithoutRoomId,
  slot: BundledSlot,
): ClientEventWithoutRoomId | undefined {
  const relations = event.unsigned?.["m.relations"];
  if (!isJsonObject(relations)) return undefined;
  const thread = relations["m.thread"];
  const bundled =
    slot === "thread" ? (isJsonObject(thread) ? thread["latest_event"] : undefined) : relations["m.replace"];
  if (!isJsonObject(bundled) || bundled["type"] !== "m.room.encrypted") return undefined;
  if (typeof bundled["event_id"] !== "string" || !isJsonObject(bundled["content"])) return undefined;
  return bundled as unknown as ClientEventWithoutRoomId;
}

/** `event` with its bundled event at `slot` swapped for `clear`. */
function withBundled(
  event: ClientEventWithoutRoomId,
  slot: BundledSlot,
  clear: ClientEventWithoutRoomId,
): ClientEventWithoutRoomId {
  const relations = event.unsigned?.["m.relations"] as Record<string, unknown>;
  const replaced =
    slot === "thread"
      ? {
          ...relations,
          "m.thread": { ...(relations["m.thread"] as Record<string, unknown>), latest_event: clear },
        }
      : { ...relations, "m.replace": clear };
  return { ...event, unsigned: { ...event.unsigned, "m.relations": replaced } };
}

const SLOTS: readonly BundledSlot[] = ["thread", "replace"];

/**
 * Runs a page of events through the decryptor: the encrypted events and
 * the encrypted events bundled in their aggregations (a thread root's
 * latest reply, the thread list's last reply; the server-bundled latest
 * edit, m.replace). A page without any passes through without calling it,
 * so an unencrypted room never wakes the crypto engine.
 */
export async function decryptPage(
  decryptor: EventDecryptor | undefined,
  roomId: string,
  events: readonly ClientEventWithoutRoomId[],
): Promise<ClientEventWithoutRoomId[]> {
  const bundled = events.map((event) => SLOTS.map((slot) => encryptedBundled(event, slot)));
  const extra = bundled.flat().filter((b): b is ClientEventWithoutRoomId => b !== undefined);
  if (decryptor === undefined || (!events.some(isEncryptedEvent) && extra.length === 0)) return [...events];
  const clear = await decryptor.decryptEvents(roomId, [...events, ...extra]);
  let next = events.length;
  return events.map((original, i) => {
    let event = clear[i] ?? original;
    bundled[i]?.forEach((inner, s) => {
      if (inner === undefined) return;
      const replacement = clear[next++];
      const slot = SLOTS[s];
      if (replacement !== undefined && slot !== undefined) event = withBundled(event, slot, replacement);
    });
    return event;
  });
}
