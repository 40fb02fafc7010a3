/**
 * Power levels a room needs for group calls: every member announces itself
 * in a call with its own `org.matrix.msc3401.call.member` state event (mesh
 * MSC3401 calls and MatrixRTC alike), which the default state_default of 50
 * reserves for moderators. Rooms the app creates lower that one event to 0
 * in createRoom's power_level_content_override, so any member can join.
 */
import type { CreateRoomRequest } from "../../api/types/rooms";
import { GROUP_CALL_MEMBER_EVENT } from "./types";

/** The power level every member needs to send call member state. */
export const CALL_MEMBER_POWER_LEVEL = 0;

/**
 * The event levels a homeserver writes into a new room's power levels
 * (Synapse's and the test homeserver's defaults). The override is applied
 * shallowly, so an `events` map in it replaces these whole: they are
 * written again beside the call member level, or a moderator could change
 * power levels, history visibility and encryption.
 */
const CREATE_ROOM_EVENT_LEVELS: Readonly<Record<string, number>> = {
  "m.room.name": 50,
  "m.room.power_levels": 100,
  "m.room.history_visibility": 100,
  "m.room.canonical_alias": 50,
  "m.room.avatar": 50,
  "m.room.tombstone": 100,
  "m.room.server_acl": 100,
  "m.room.encryption": 100,
};

/**
 * `body` with the call member event at power level 0 in its
 * power_level_content_override, keeping the server's default event levels
 * and whatever else the override says.
 */
export function withCallMemberPowerLevel(body: CreateRoomRequest): CreateRoomRequest {
  const override = body.power_level_content_override ?? {};
  const events = override["events"];
  return {
    ...body,
    power_level_content_override: {
      ...override,
      events: {
        ...CREATE_ROOM_EVENT_LEVELS,
        ...(typeof events === "object" && events !== null ? events : {}),
        [GROUP_CALL_MEMBER_EVENT]: CALL_MEMBER_POWER_LEVEL,
      },
    },
  };
}
