/**
 * The capabilities an embedded view asks its host for, computed from what
 * the view needs and nothing more: the granted room's timeline; for the
 * room view, messages, reactions, redactions, the state the timeline
 * renders, and media upload and download (MSC4039); for the call view, the room state MatrixRTC reads, our own call
 * membership (both state-key forms), delayed events for the leave,
 * encryption keys (room event and to-device), rings, raised hands and
 * reactions (m.reaction, its redaction, io.element.call.reaction), TURN and the RTC
 * transports (MSC4515); and, for the mesh group call the web app runs
 * today, the group call state, the legacy membership keyed by the user, and
 * the m.call.* to-device signalling.
 */
import {
  MatrixCapabilities,
  roomEventCapability,
  roomMessageCapability,
  stateEventCapability,
  timelineCapability,
  toDeviceCapability,
} from "@lattice/widget-api";
import {
  CALL_MEMBER_EVENT,
  CALL_REACTION_EVENT,
  ENCRYPTION_KEYS_EVENT,
  RTC_NOTIFICATION_EVENT,
} from "../rtc/constants";

/** What the embedded page shows. */
export type EmbeddedView = "room" | "call";

/** State the timeline and room header render. */
const ROOM_STATE = [
  "m.room.create",
  "m.room.member",
  "m.room.name",
  "m.room.topic",
  "m.room.avatar",
  "m.room.power_levels",
  "m.room.encryption",
  "m.room.join_rules",
] as const;

/** Timeline event types the room view shows and sends (m.room.message by msgtype wildcard). */
const ROOM_EVENTS = ["m.reaction", "m.room.redaction"] as const;

/** State MatrixRTC reads to find the call and its members. */
const CALL_STATE = [
  "m.room.create",
  "m.room.member",
  "m.room.name",
  "m.room.power_levels",
  "m.room.encryption",
];

/** To-device signalling of the mesh group call (voip). */
const MESH_TO_DEVICE = [
  "m.call.invite",
  "m.call.answer",
  "m.call.candidates",
  "m.call.hangup",
  "m.call.select_answer",
  "m.call.negotiate",
  "m.call.reject",
] as const;

/** The mesh group call's state event. */
const GROUP_CALL_EVENT = "org.matrix.msc3401.call";

/** The capability list for `view` in `roomId`, as `userId`'s `deviceId`. */
export function embeddedCapabilities(
  view: EmbeddedView,
  roomId: string,
  userId: string,
  deviceId: string,
): string[] {
  const caps = [timelineCapability(roomId)];
  if (view === "room") {
    for (const type of ROOM_STATE) caps.push(stateEventCapability("receive", type));
    caps.push(roomMessageCapability("receive"), roomMessageCapability("send"));
    for (const type of ROOM_EVENTS)
      caps.push(roomEventCapability("receive", type), roomEventCapability("send", type));
    caps.push(MatrixCapabilities.MSC4039UploadFile, MatrixCapabilities.MSC4039DownloadFile);
    return caps;
  }
  for (const type of CALL_STATE) caps.push(stateEventCapability("receive", type));
  caps.push(stateEventCapability("receive", CALL_MEMBER_EVENT));
  // Our own membership: owned state keys (new room versions) and the `_`-prefixed form.
  const own = `${userId}_${deviceId}_m.call`;
  caps.push(
    stateEventCapability("send", CALL_MEMBER_EVENT, own),
    stateEventCapability("send", CALL_MEMBER_EVENT, `_${own}`),
    stateEventCapability("send", CALL_MEMBER_EVENT, userId),
    stateEventCapability("receive", GROUP_CALL_EVENT),
    stateEventCapability("send", GROUP_CALL_EVENT),
  );
  for (const type of MESH_TO_DEVICE)
    caps.push(toDeviceCapability("send", type), toDeviceCapability("receive", type));
  for (const type of [ENCRYPTION_KEYS_EVENT, RTC_NOTIFICATION_EVENT, ...ROOM_EVENTS, CALL_REACTION_EVENT])
    caps.push(roomEventCapability("receive", type), roomEventCapability("send", type));
  caps.push(
    toDeviceCapability("send", ENCRYPTION_KEYS_EVENT),
    toDeviceCapability("receive", ENCRYPTION_KEYS_EVENT),
    MatrixCapabilities.MSC4157SendDelayedEvent,
    MatrixCapabilities.MSC4157UpdateDelayedEvent,
    MatrixCapabilities.MSC3846TurnServers,
    MatrixCapabilities.MSC4515RtcTransports,
  );
  return caps;
}
