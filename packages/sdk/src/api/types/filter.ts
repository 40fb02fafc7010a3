/**
 * Wire types of sync filters (filter.yaml, definitions/sync_filter.yaml,
 * event_filter.yaml, room_event_filter.yaml).
 */

/** Filters events by type and sender, with a limit. */
export interface EventFilter {
  limit?: number;
  types?: string[];
  not_types?: string[];
  senders?: string[];
  not_senders?: string[];
}

/** An EventFilter for room events, adding room and lazy-loading options. */
export interface RoomEventFilter extends EventFilter {
  rooms?: string[];
  not_rooms?: string[];
  contains_url?: boolean;
  lazy_load_members?: boolean;
  include_redundant_members?: boolean;
  unread_thread_notifications?: boolean;
}

/** Filters the rooms part of a sync response. */
export interface RoomFilter {
  rooms?: string[];
  not_rooms?: string[];
  include_leave?: boolean;
  ephemeral?: RoomEventFilter;
  state?: RoomEventFilter;
  timeline?: RoomEventFilter;
  account_data?: RoomEventFilter;
}

/** A sync filter definition. */
export interface Filter {
  event_fields?: string[];
  event_format?: "client" | "federation";
  presence?: EventFilter;
  account_data?: EventFilter;
  room?: RoomFilter;
}

/** POST /user/{userId}/filter */
export interface CreateFilterResponse {
  filter_id: string;
}
