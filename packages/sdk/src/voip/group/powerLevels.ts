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
 * `body` with the call member event at power level 0 in its
 * power_level_content_override, keeping whatever else the override says.
 */
export function withCallMemberPowerLevel(body: CreateRoomRequest): CreateRoomRequest {
  const override = body.power_level_content_override ?? {};
  const events = override["events"];
  return {
    ...body,
    power_level_content_override: {
      ...override,
      events: {
        ...(typeof events === "object" && events !== null ? events : {}),
        [GROUP_CALL_MEMBER_EVENT]: CALL_MEMBER_POWER_LEVEL,
      },
    },
  };
}
