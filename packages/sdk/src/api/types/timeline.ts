/**
 * Wire types of reading a room's events and state: /messages, /context,
 * /event, /state, /members, /joined_members, timestamp_to_event, relations,
 * threads and notifications (message_pagination.yaml, event_context.yaml,
 * rooms.yaml, room_event_by_timestamp.yaml, relations.yaml,
 * threads_list.yaml, notifications.yaml).
 */
import type { ClientEvent, ClientEventWithoutRoomId, EventContent, StateEvent } from "./events";
import type { RoomEventFilter } from "./filter";

/** Pagination direction: backwards (older) or forwards (newer). */
export type Direction = "b" | "f";

/** Query of GET /rooms/{roomId}/messages. */
export interface MessagesParams {
  from?: string;
  to?: string;
  dir: Direction;
  limit?: number;
  /** Sent JSON-encoded. */
  filter?: RoomEventFilter;
}

/** The response of GET /rooms/{roomId}/messages. */
export interface MessagesResponse {
  start: string;
  end?: string;
  chunk: ClientEvent[];
  state?: ClientEvent[];
}

/** Query of GET /rooms/{roomId}/context/{eventId}. */
export interface ContextParams {
  limit?: number;
  filter?: RoomEventFilter;
}

/** The response of GET /rooms/{roomId}/context/{eventId}. */
export interface ContextResponse {
  start?: string;
  end?: string;
  events_before?: ClientEvent[];
  event?: ClientEvent;
  events_after?: ClientEvent[];
  state?: ClientEvent[];
}

/** A membership value the /members filters accept. */
export type MemberFilterMembership = "join" | "invite" | "knock" | "leave" | "ban";

/** Query of GET /rooms/{roomId}/members. */
export interface MembersParams {
  /** A pagination token: members as of that point of the timeline. */
  at?: string;
  membership?: MemberFilterMembership;
  not_membership?: MemberFilterMembership;
}

/** The response of GET /rooms/{roomId}/members. */
export interface MembersResponse {
  chunk: StateEvent[];
}

/** One member of GET /rooms/{roomId}/joined_members. */
export interface JoinedMember {
  display_name?: string;
  avatar_url?: string;
}

/** The response of GET /rooms/{roomId}/joined_members; keyed by user id (data, not keys). */
export interface JoinedMembersResponse {
  joined: Record<string, JoinedMember>;
}

/** The response of GET /rooms/{roomId}/state. */
export type RoomStateResponse = StateEvent[];

/** The response of GET /rooms/{roomId}/state/{eventType}/{stateKey} (format=content). */
export type StateContentResponse = EventContent;

/** The response of GET /rooms/{roomId}/timestamp_to_event. */
export interface TimestampToEventResponse {
  event_id: string;
  origin_server_ts: number;
}

/** Query of the relations calls. */
export interface RelationsParams {
  relType?: string;
  /** Only with relType. */
  eventType?: string;
  from?: string;
  to?: string;
  limit?: number;
  dir?: Direction;
  recurse?: boolean;
}

/** The response of GET /rooms/{roomId}/relations/... */
export interface RelationsResponse {
  chunk: ClientEvent[];
  next_batch?: string;
  prev_batch?: string;
  recursion_depth?: number;
}

/** Query of GET /rooms/{roomId}/threads. */
export interface ThreadsParams {
  include?: "all" | "participated";
  limit?: number;
  from?: string;
  /** Not in the spec's operation; some servers read it (SPEC §7 lists it). */
  dir?: Direction;
  /** Not in the spec's operation; some servers read it (SPEC §7 lists it). */
  filter?: RoomEventFilter;
}

/** The response of GET /rooms/{roomId}/threads. */
export interface ThreadsResponse {
  chunk: ClientEvent[];
  next_batch?: string;
}

/** Query of GET /notifications. */
export interface NotificationsParams {
  from?: string;
  limit?: number;
  /** "highlight" to list only highlights. */
  only?: "highlight";
}

/** One notification of GET /notifications. */
export interface Notification {
  actions: unknown[];
  event: ClientEventWithoutRoomId;
  profile_tag?: string;
  read: boolean;
  room_id: string;
  ts: number;
}

/** The response of GET /notifications. */
export interface NotificationsResponse {
  next_token?: string;
  notifications: Notification[];
}
