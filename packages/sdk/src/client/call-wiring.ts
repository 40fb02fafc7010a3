/**
 * What the call services (client.voip and client.rtc) both take from the
 * client: who we are, the HTTP API, time, the rooms, the send queue and the
 * processed sync batches. Each service's wiring adds what only it needs.
 * Both send their room events as signalling (sendSignalling).
 */
import { ClientServiceError } from "./errors";
import type { HttpApi } from "../http/types";
import type { Rooms } from "../models/room/Rooms";
import type { SendQueue } from "../send/SendQueue";
import type { SyncBatchListener } from "../sync/processor/types";
import type { Scheduler } from "../util/scheduler";

/** The part of the client every call service is wired with. */
export interface CallWiringBase {
  userId: string;
  deviceId: string | undefined;
  http: HttpApi;
  scheduler: Scheduler;
  rooms: Rooms;
  sendQueue: SendQueue;
  batches: { subscribe(listener: SyncBatchListener): () => void } | undefined;
}

/**
 * Sends a call's room event (invite, candidates, hangup, media keys, rings)
 * as signalling: through the room's send queue (in order, encrypted in
 * encrypted rooms) but hidden, so it shows no local echo and is not written
 * to the store first (the send starts without waiting for a store write, and
 * a reload never sends a stale invite). Resolves with the event id once the
 * server has it; a failed send is dropped so it does not block the room.
 */
export async function sendSignalling(
  sendQueue: SendQueue,
  roomId: string,
  type: string,
  content: Record<string, unknown>,
): Promise<string | undefined> {
  const pending = sendQueue.send(roomId, type, content, { hidden: true });
  const settled = await sendQueue.whenSettled(pending.txnId);
  if (settled?.status === "not_sent" || settled?.status === "cancelled") {
    if (settled.status === "not_sent") sendQueue.cancel(settled.txnId);
    throw new ClientServiceError("NOT_SENT", `${type} was not sent: ${settled.failure?.message ?? ""}`);
  }
  return settled?.eventId;
}
