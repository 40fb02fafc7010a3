/**
 * Wire types of GET /sync (api/client-server/sync.yaml), with every field
 * SPEC §3 reads, plus the unstable MSC4222 `state_after` name.
 */
import type {
  BasicEvent,
  ClientEvent,
  ClientEventWithoutRoomId,
  EphemeralEvent,
  EventBatch,
  PresenceEvent,
  StrippedStateEvent,
  ToDeviceEvent,
} from "./events";
import type { Filter } from "./filter";

/** `set_presence` values of /sync. */
export type SetPresence = "offline" | "online" | "unavailable";

/** Query of GET /sync, as the API function takes it. */
export interface SyncParams {
  /** A stored filter id, or a filter object sent inline as JSON. */
  filter?: string | Filter;
  /** The next_batch token of the previous sync; absent for an initial sync. */
  since?: string;
  /** Long-poll time in ms; 0 while catching up, reconnecting or in error. */
  timeout?: number;
  set_presence?: SetPresence;
  full_state?: boolean;
  /**
   * Ask for `state_after` (MSC4222) under the stable or the unstable name;
   * omitted means not asked. See `stateAfterFlavour` for the choice.
   */
  useStateAfter?: "stable" | "unstable";
  /**
   * The time for the `_cacheBuster` query added to a sync without `since`,
   * so no cache between us and the server answers an initial sync with a
   * stale copy. Servers ignore unknown query parameters. Pass false to omit.
   * Defaults to Date.now().
   */
  cacheBuster?: number | false;
  /** Local request time-out in ms (the poll timeout plus a margin). */
  requestTimeoutMs?: number;
  signal?: AbortSignal;
}

/** A batch of state events. */
export interface StateEventBatch {
  events?: ClientEventWithoutRoomId[];
}

/** A batch of timeline events. */
export interface TimelineBatch {
  events: ClientEventWithoutRoomId[];
  limited?: boolean;
  prev_batch?: string;
}

/** Notification counts of a room or a thread. */
export interface UnreadNotificationCounts {
  highlight_count?: number;
  notification_count?: number;
}

/** Room summary in /sync, used to name rooms without all members. */
export interface RoomSummary {
  "m.heroes"?: string[];
  "m.joined_member_count"?: number;
  "m.invited_member_count"?: number;
}

/** A joined room in /sync. */
export interface JoinedRoom {
  summary?: RoomSummary;
  state?: StateEventBatch;
  /** MSC4222 stable name, present when `use_state_after` was asked. */
  state_after?: StateEventBatch;
  /** MSC4222 unstable name of `state_after`. */
  "org.matrix.msc4222.state_after"?: StateEventBatch;
  timeline?: TimelineBatch;
  ephemeral?: EventBatch<EphemeralEvent>;
  account_data?: EventBatch<BasicEvent>;
  unread_notifications?: UnreadNotificationCounts;
  /** Per-thread counts, keyed by thread root event id. */
  unread_thread_notifications?: Record<string, UnreadNotificationCounts>;
}

/** An invited room in /sync. */
export interface InvitedRoom {
  invite_state?: EventBatch<StrippedStateEvent>;
}

/** A knocked room in /sync. */
export interface KnockedRoom {
  knock_state?: EventBatch<StrippedStateEvent>;
}

/** A left room in /sync. */
export interface LeftRoom {
  state?: StateEventBatch;
  state_after?: StateEventBatch;
  "org.matrix.msc4222.state_after"?: StateEventBatch;
  timeline?: TimelineBatch;
  account_data?: EventBatch<BasicEvent>;
}

/** Rooms in /sync, keyed by room id (ids are data: read with Object.entries or hasOwn). */
export interface SyncRooms {
  join?: Record<string, JoinedRoom>;
  invite?: Record<string, InvitedRoom>;
  leave?: Record<string, LeftRoom>;
  knock?: Record<string, KnockedRoom>;
}

/** Device list changes since the previous sync (E2EE). */
export interface DeviceLists {
  changed?: string[];
  left?: string[];
}

/** The response of GET /sync. */
export interface SyncResponse {
  next_batch: string;
  rooms?: SyncRooms;
  presence?: EventBatch<PresenceEvent>;
  account_data?: EventBatch<BasicEvent>;
  to_device?: EventBatch<ToDeviceEvent>;
  device_lists?: DeviceLists;
  device_one_time_keys_count?: Record<string, number>;
  device_unused_fallback_key_types?: string[];
  /** Unstable name used by older servers for device_unused_fallback_key_types (MSC2732). */
  "org.matrix.msc2732.device_unused_fallback_key_types"?: string[];
}

/** Query of GET /events (peeking). */
export interface PeekEventsParams {
  roomId: string;
  from?: string;
  /** Long-poll time in ms; 30000 by default. */
  timeout?: number;
  requestTimeoutMs?: number;
  signal?: AbortSignal;
}

/** The response of GET /events. */
export interface PeekEventsResponse {
  start?: string;
  end?: string;
  chunk: ClientEvent[];
}
