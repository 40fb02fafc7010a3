/**
 * Wire types of room-level calls: createRoom, joined_rooms, upgrade, room
 * summary (MSC3266), space hierarchy, aliases, reports, room initialSync and
 * the room directory (create_room.yaml, room_upgrades.yaml, room_summary.yaml,
 * space_hierarchy.yaml, directory.yaml, list_public_rooms.yaml,
 * report_content.yaml, room_initial_sync.yaml).
 */
import type { BasicEvent, ClientEvent, EventContent, StrippedStateEvent } from "./events";

/** A room's membership of the user, as several responses state it. */
export type Membership = "invite" | "join" | "knock" | "leave" | "ban";

/** A third-party invite in createRoom's `invite_3pid` (definitions/invite_3pid.yaml). */
export interface Invite3pid {
  id_server: string;
  id_access_token: string;
  medium: string;
  address: string;
}

/** One initial state event of createRoom. */
export interface InitialStateEvent {
  type: string;
  state_key?: string;
  content: EventContent;
}

/** The body of POST /createRoom. */
export interface CreateRoomRequest {
  visibility?: "public" | "private";
  room_alias_name?: string;
  name?: string;
  topic?: string;
  invite?: string[];
  invite_3pid?: Invite3pid[];
  room_version?: string;
  creation_content?: EventContent;
  initial_state?: InitialStateEvent[];
  preset?: "private_chat" | "public_chat" | "trusted_private_chat";
  is_direct?: boolean;
  power_level_content_override?: EventContent;
}

/** The response of POST /createRoom. */
export interface CreateRoomResponse {
  room_id: string;
}

/** The response of GET /joined_rooms. */
export interface JoinedRoomsResponse {
  joined_rooms: string[];
}

/** The body of POST /rooms/{roomId}/upgrade. */
export interface UpgradeRoomRequest {
  new_version: string;
  /** Room version 12: extra creators of the new room. */
  additional_creators?: string[];
}

/** The response of POST /rooms/{roomId}/upgrade. */
export interface UpgradeRoomResponse {
  replacement_room: string;
}

/** A room in the public room directory (definitions/public_rooms_chunk.yaml). */
export interface PublicRoomsChunk {
  room_id: string;
  num_joined_members: number;
  world_readable: boolean;
  guest_can_join: boolean;
  canonical_alias?: string;
  name?: string;
  topic?: string;
  avatar_url?: string;
  join_rule?: string;
  room_type?: string;
}

/** A room summary (definitions/room_summary.yaml). */
export interface RoomSummaryChunk extends PublicRoomsChunk {
  allowed_room_ids?: string[];
  encryption?: string;
  room_version?: string;
  /** Unstable names older servers use (MSC3266). */
  "im.nheko.summary.version"?: string;
  "im.nheko.summary.encryption"?: string;
}

/** The response of GET /room_summary/{roomIdOrAlias} (MSC3266). */
export interface RoomSummaryResponse extends RoomSummaryChunk {
  membership?: Membership;
}

/** A stripped m.space.child event in a hierarchy answer. */
export interface HierarchyChildState extends StrippedStateEvent {
  origin_server_ts: number;
}

/** One room of a space hierarchy. */
export interface HierarchyRoom extends RoomSummaryChunk {
  children_state: HierarchyChildState[];
}

/** Query of GET /rooms/{roomId}/hierarchy. */
export interface HierarchyParams {
  suggested_only?: boolean;
  limit?: number;
  max_depth?: number;
  from?: string;
}

/** The response of GET /rooms/{roomId}/hierarchy. */
export interface HierarchyResponse {
  rooms: HierarchyRoom[];
  next_batch?: string;
}

/** The response of GET /rooms/{roomId}/aliases. */
export interface RoomAliasesResponse {
  aliases: string[];
}

/** The body of POST /rooms/{roomId}/report/{eventId}. */
export interface ReportEventRequest {
  reason?: string;
  /** Deprecated by the spec but still sent by clients: -100 (most offensive) to 0. */
  score?: number;
}

/** The response of GET /rooms/{roomId}/initialSync. */
export interface RoomInitialSyncResponse {
  room_id: string;
  membership?: Membership;
  messages?: { start?: string; end: string; chunk: ClientEvent[] };
  state?: ClientEvent[];
  visibility?: "public" | "private";
  account_data?: BasicEvent[];
}

/** Visibility of a room in the public directory. */
export type DirectoryVisibility = "public" | "private";

/** The response of GET /directory/room/{roomAlias}. */
export interface ResolveAliasResponse {
  room_id: string;
  servers: string[];
}

/** Query of GET /publicRooms. */
export interface PublicRoomsParams {
  limit?: number;
  since?: string;
  server?: string;
}

/** The filter of POST /publicRooms. */
export interface PublicRoomsFilter {
  generic_search_term?: string;
  /** `null` inside the list stands for rooms without a type. */
  room_types?: Array<string | null>;
}

/** The body of POST /publicRooms (plus its `server` query). */
export interface PublicRoomsSearch {
  server?: string;
  limit?: number;
  since?: string;
  filter?: PublicRoomsFilter;
  include_all_networks?: boolean;
  third_party_instance_id?: string;
}

/** The response of GET and POST /publicRooms. */
export interface PublicRoomsResponse {
  chunk: PublicRoomsChunk[];
  next_batch?: string;
  prev_batch?: string;
  total_room_count_estimate?: number;
}
