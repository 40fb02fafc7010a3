/**
 * What the call services (client.voip and client.rtc) both take from the
 * client: who we are, the HTTP API, time, the rooms, the send queue and the
 * processed sync batches. Each service's wiring adds what only it needs.
 */
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
