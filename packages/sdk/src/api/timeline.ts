/**
 * Reading a room's timeline and state: /messages, /context, one event, the
 * full state, one state event, members, joined members, and the
 * event-at-a-timestamp lookup (v1, falling back to MSC3030's prefix).
 */
import type { HttpApi } from "../http/types";
import { Prefix, encodePath } from "../http/types";
import { encodeFilter } from "./sync";
import type { ClientEvent } from "./types/events";
import type {
  ContextParams,
  ContextResponse,
  Direction,
  JoinedMembersResponse,
  MembersParams,
  MembersResponse,
  MessagesParams,
  MessagesResponse,
  RoomStateResponse,
  StateContentResponse,
  TimestampToEventResponse,
} from "./types/timeline";
import { TIMESTAMP_TO_EVENT_PREFIX } from "./unstable";

/** GET /rooms/{roomId}/messages: a page of events; the filter travels JSON-encoded. */
export function messages(http: HttpApi, roomId: string, params: MessagesParams): Promise<MessagesResponse> {
  return http.request<MessagesResponse>({
    method: "GET",
    path: encodePath`/rooms/${roomId}/messages`,
    query: {
      from: params.from,
      to: params.to,
      dir: params.dir,
      limit: params.limit,
      filter: params.filter !== undefined ? encodeFilter(params.filter) : undefined,
    },
  });
}

/** GET /rooms/{roomId}/context/{eventId}: an event with the events around it. */
export function eventContext(
  http: HttpApi,
  roomId: string,
  eventId: string,
  params: ContextParams = {},
): Promise<ContextResponse> {
  return http.request<ContextResponse>({
    method: "GET",
    path: encodePath`/rooms/${roomId}/context/${eventId}`,
    query: {
      limit: params.limit,
      filter: params.filter !== undefined ? encodeFilter(params.filter) : undefined,
    },
  });
}

/** GET /rooms/{roomId}/event/{eventId}. */
export function getEvent(http: HttpApi, roomId: string, eventId: string): Promise<ClientEvent> {
  return http.request<ClientEvent>({ method: "GET", path: encodePath`/rooms/${roomId}/event/${eventId}` });
}

/** GET /rooms/{roomId}/state: every current state event. */
export function roomState(http: HttpApi, roomId: string): Promise<RoomStateResponse> {
  return http.request<RoomStateResponse>({ method: "GET", path: encodePath`/rooms/${roomId}/state` });
}

/** GET /rooms/{roomId}/state/{eventType}/{stateKey}: the content of one state event. */
export function getStateEvent(
  http: HttpApi,
  roomId: string,
  eventType: string,
  stateKey = "",
): Promise<StateContentResponse> {
  return http.request<StateContentResponse>({
    method: "GET",
    path: encodePath`/rooms/${roomId}/state/${eventType}/${stateKey}`,
  });
}

/** GET /rooms/{roomId}/members, optionally at a point in time and filtered by membership. */
export function members(http: HttpApi, roomId: string, params: MembersParams = {}): Promise<MembersResponse> {
  return http.request<MembersResponse>({
    method: "GET",
    path: encodePath`/rooms/${roomId}/members`,
    query: { at: params.at, membership: params.membership, not_membership: params.not_membership },
  });
}

/** GET /rooms/{roomId}/joined_members: joined users with their display names and avatars. */
export function joinedMembers(http: HttpApi, roomId: string): Promise<JoinedMembersResponse> {
  return http.request<JoinedMembersResponse>({
    method: "GET",
    path: encodePath`/rooms/${roomId}/joined_members`,
  });
}

/**
 * GET /_matrix/client/v1/rooms/{roomId}/timestamp_to_event: the event closest
 * to `ts` in direction `dir`, falling back to the MSC3030 prefix.
 */
export function timestampToEvent(
  http: HttpApi,
  roomId: string,
  ts: number,
  dir: Direction = "f",
): Promise<TimestampToEventResponse> {
  return http.request<TimestampToEventResponse>({
    method: "GET",
    prefix: Prefix.ClientV1,
    path: encodePath`/rooms/${roomId}/timestamp_to_event`,
    fallback: [{ prefix: TIMESTAMP_TO_EVENT_PREFIX.unstable }],
    query: { ts, dir },
  });
}
