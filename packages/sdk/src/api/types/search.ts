/**
 * Wire types of server-side search, POST /search (search.yaml). Only the
 * room_events category exists.
 */
import type { ClientEvent } from "./events";
import type { RoomEventFilter } from "./filter";

/** Which fields a search term is matched against. */
export type SearchKey = "content.body" | "content.name" | "content.topic";

/** The room_events category of a search request. */
export interface RoomEventsCriteria {
  search_term: string;
  keys?: SearchKey[];
  filter?: RoomEventFilter;
  order_by?: "recent" | "rank";
  event_context?: { before_limit?: number; after_limit?: number; include_profile?: boolean };
  include_state?: boolean;
  groupings?: { group_by?: Array<{ key?: "room_id" | "sender" }> };
}

/** The body of POST /search. */
export interface SearchRequest {
  search_categories: { room_events?: RoomEventsCriteria };
}

/** The context around one search result. */
export interface SearchResultContext {
  start?: string;
  end?: string;
  profile_info?: Record<string, { displayname?: string; avatar_url?: string }>;
  events_before?: ClientEvent[];
  events_after?: ClientEvent[];
}

/** One search result. */
export interface SearchResult {
  rank?: number;
  result?: ClientEvent;
  context?: SearchResultContext;
}

/** The room_events category of a search response. */
export interface RoomEventsResults {
  count?: number;
  highlights?: string[];
  results?: SearchResult[];
  state?: Record<string, ClientEvent[]>;
  groups?: Record<string, Record<string, { next_batch?: string; order?: number; results?: string[] }>>;
  /** Present when there are more results; pass it back as `nextBatch`. */
  next_batch?: string;
}

/** The response of POST /search. */
export interface SearchResponse {
  search_categories: { room_events?: RoomEventsResults };
}
