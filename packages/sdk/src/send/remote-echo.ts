/**
 * Reading a processed sync batch for what the send queue cares about: the
 * server's copies of our own events (matched by unsigned.transaction_id, which
 * the server adds only for the sending device, or by the event id a PUT
 * returned) and rooms that turned on encryption.
 */
import type { ClientEventWithoutRoomId } from "../api/types/events";
import type { ProcessedSync } from "../sync/processor/types";

/** One timeline event of a room in the batch, with the txn id if it is ours. */
export interface EchoCandidate {
  roomId: string;
  eventId: string;
  txnId: string | undefined;
}

function timelineOf(batch: ProcessedSync): Array<[string, ClientEventWithoutRoomId[]]> {
  const out: Array<[string, ClientEventWithoutRoomId[]]> = [];
  for (const [roomId, room] of batch.rooms.join) out.push([roomId, room.timeline.events]);
  for (const [roomId, room] of batch.rooms.leave) out.push([roomId, room.timeline.events]);
  return out;
}

/** Every timeline event of joined and left rooms, as echo candidates. */
export function echoCandidates(batch: ProcessedSync): EchoCandidate[] {
  const out: EchoCandidate[] = [];
  for (const [roomId, events] of timelineOf(batch)) {
    for (const event of events) {
      const txn = event.unsigned?.transaction_id;
      out.push({ roomId, eventId: event.event_id, txnId: typeof txn === "string" ? txn : undefined });
    }
  }
  return out;
}

/** Rooms whose state or timeline in this batch carries m.room.encryption. */
export function roomsTurningOnEncryption(batch: ProcessedSync): string[] {
  const out: string[] = [];
  for (const [roomId, room] of batch.rooms.join) {
    const events = [...room.state, ...(room.stateAfter ?? []), ...room.timeline.events];
    if (events.some((e) => e.type === "m.room.encryption" && e.state_key === "")) out.push(roomId);
  }
  return out;
}
