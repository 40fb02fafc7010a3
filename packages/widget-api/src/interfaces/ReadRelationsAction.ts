/** org.matrix.msc3869.read_relations. */
import type { RoomEvent } from "./RoomEvent";

/** read_relations request data. */
export interface ReadRelationsRequestData {
  event_id: string;
  room_id?: string;
  rel_type?: string;
  event_type?: string;
  from?: string;
  to?: string;
  limit?: number;
  direction?: "f" | "b";
}

/** read_relations reply. */
export interface ReadRelationsResponseData {
  chunk: RoomEvent[];
  prev_batch?: string;
  next_batch?: string;
}
