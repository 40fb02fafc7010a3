/**
 * Wire types of simplified sliding sync (MSC4186): the request body of
 * POST .../org.matrix.simplified_msc3575/sync and its response, with the
 * fields the client sends and reads. Response fields are optional: the
 * answer is untrusted and is converted defensively (convert.ts).
 */
import type {
  BasicEvent,
  ClientEventWithoutRoomId,
  EphemeralEvent,
  StrippedStateEvent,
  ToDeviceEvent,
} from "../../api/types/events";

/** A [event type, state key] pair; "*" matches any, "$LAZY" and "$ME" are special state keys. */
export type RequiredStateTuple = [string, string];

/** What to send of each room of a list or subscription. */
export interface SlidingRoomConfig {
  timeline_limit: number;
  required_state: RequiredStateTuple[];
}

/** One room list: the rooms in its ranges (inclusive indices into the list ordered by recency). */
export interface SlidingListConfig extends SlidingRoomConfig {
  ranges: Array<[number, number]>;
  filters?: Record<string, unknown>;
}

/** An extension switched on, with its own options. */
export interface SlidingExtension {
  enabled: boolean;
  /** to_device: the extension's own token (its next_batch of the previous answer). */
  since?: string;
}

/** The request body. */
export interface SlidingSyncRequestBody {
  conn_id?: string;
  lists: Record<string, SlidingListConfig>;
  room_subscriptions?: Record<string, SlidingRoomConfig>;
  extensions: Record<string, SlidingExtension>;
}

/** A hero of a room without a name, as the server computes it. */
export interface SlidingHero {
  user_id: string;
  displayname?: string;
  avatar_url?: string;
}

/** One room of the response. */
export interface SlidingRoom {
  /** The membership of the user; absent on servers that predate the field (then: join). */
  membership?: string;
  initial?: boolean;
  name?: string;
  avatar?: string;
  heroes?: SlidingHero[];
  /** State at the end of the timeline (only changes after the first time the room is sent). */
  required_state?: ClientEventWithoutRoomId[];
  timeline?: ClientEventWithoutRoomId[];
  prev_batch?: string;
  limited?: boolean;
  num_live?: number;
  invite_state?: StrippedStateEvent[];
  knock_state?: StrippedStateEvent[];
  joined_count?: number;
  invited_count?: number;
  notification_count?: number;
  highlight_count?: number;
  /** The room's place in "recent activity" order; higher is more recent. */
  bump_stamp?: number;
}

/** The response. */
export interface SlidingSyncResponse {
  pos: string;
  lists?: Record<string, { count?: number }>;
  rooms?: Record<string, SlidingRoom>;
  extensions?: {
    to_device?: { next_batch?: string; events?: ToDeviceEvent[] };
    e2ee?: {
      device_lists?: { changed?: string[]; left?: string[] };
      device_one_time_keys_count?: Record<string, number>;
      device_unused_fallback_key_types?: string[];
    };
    account_data?: { global?: BasicEvent[]; rooms?: Record<string, BasicEvent[]> };
    receipts?: { rooms?: Record<string, EphemeralEvent> };
    typing?: { rooms?: Record<string, EphemeralEvent> };
  };
}
