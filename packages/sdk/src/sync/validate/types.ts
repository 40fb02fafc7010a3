/**
 * The typed, validated form of one sync response: what the validation phase
 * produces and every later phase (decrypt, write, emit) consumes. Rooms are
 * Maps keyed by room id, so ids like `__proto__` are data. Events keep their
 * wire shapes (api/types/events.ts); only validated fields are copied.
 */
import type {
  BasicEvent,
  ClientEventWithoutRoomId,
  EphemeralEvent,
  PresenceEvent,
  StrippedStateEvent,
  ToDeviceEvent,
} from "../../api/types/events";

/** Notification counts of a room or a thread. */
export interface UnreadCounts {
  highlightCount: number;
  notificationCount: number;
}

/** Room summary fields, each present only when the server sent it. */
export interface ParsedSummary {
  heroes?: string[];
  joinedMemberCount?: number;
  invitedMemberCount?: number;
}

/** A validated timeline batch. */
export interface ParsedTimeline {
  events: ClientEventWithoutRoomId[];
  limited: boolean;
  prevBatch?: string;
}

/** A joined room's update. */
export interface ParsedJoinedRoom {
  summary?: ParsedSummary;
  /** State before the timeline (sync v2 `state`). */
  state: ClientEventWithoutRoomId[];
  /** State at the end of the timeline (MSC4222), when the server sent it. */
  stateAfter?: ClientEventWithoutRoomId[];
  timeline: ParsedTimeline;
  /** MSC4354 sticky events not in the timeline (`msc4354_sticky`), when the server sent any. */
  sticky?: ClientEventWithoutRoomId[];
  ephemeral: EphemeralEvent[];
  accountData: BasicEvent[];
  unreadNotifications?: UnreadCounts;
  /** Per-thread counts keyed by thread root event id, when the server sent them. */
  unreadThreadNotifications?: Map<string, UnreadCounts>;
}

/** A left room's update: its final state and timeline. */
export interface ParsedLeftRoom {
  state: ClientEventWithoutRoomId[];
  stateAfter?: ClientEventWithoutRoomId[];
  timeline: ParsedTimeline;
  accountData: BasicEvent[];
}

/** An invited room's stripped state. */
export interface ParsedInvitedRoom {
  inviteState: StrippedStateEvent[];
}

/** A knocked room's stripped state. */
export interface ParsedKnockedRoom {
  knockState: StrippedStateEvent[];
}

export interface ParsedRooms {
  join: Map<string, ParsedJoinedRoom>;
  invite: Map<string, ParsedInvitedRoom>;
  leave: Map<string, ParsedLeftRoom>;
  knock: Map<string, ParsedKnockedRoom>;
}

/** Device list changes (E2EE). */
export interface ParsedDeviceLists {
  changed: string[];
  left: string[];
}

/** One validated sync response. */
export interface ParsedSync {
  nextBatch: string;
  rooms: ParsedRooms;
  presence: PresenceEvent[];
  accountData: BasicEvent[];
  toDevice: ToDeviceEvent[];
  deviceLists: ParsedDeviceLists;
  /** One-time key counts by algorithm; absent when the server sent none. */
  oneTimeKeysCount?: Map<string, number>;
  /** Unused fallback key algorithms (stable or MSC2732 name); absent when the server sent none. */
  unusedFallbackKeyTypes?: string[];
}

/** An empty batch, the base for building one. */
export function emptyParsedSync(nextBatch: string): ParsedSync {
  return {
    nextBatch,
    rooms: { join: new Map(), invite: new Map(), leave: new Map(), knock: new Map() },
    presence: [],
    accountData: [],
    toDevice: [],
    deviceLists: { changed: [], left: [] },
  };
}
