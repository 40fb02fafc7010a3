/** org.matrix.msc2876.read_events: read room or state events. */
import type { RoomEvent } from "./RoomEvent";

/** read_events request data. `state_key: true` means any state key; room_ids "*" any room. */
export interface ReadEventsRequestData {
  type: string;
  state_key?: string | boolean;
  msgtype?: string;
  limit?: number;
  since?: string;
  room_ids?: string[] | "*";
}

/** read_events reply: the events the widget may receive, oldest first per room. */
export interface ReadEventsResponseData {
  events: RoomEvent[];
}
