/**
 * Room upgrades: the lineage of a room as its state tells it. An upgraded
 * room carries an m.room.tombstone naming its replacement; the replacement
 * names its predecessor in m.room.create's `predecessor` (`room_id`, and
 * `event_id` which newer versions no longer require), or through an MSC3946
 * dynamic predecessor state event. Each is a room version marker (SPEC §5):
 * honoured only if the room version supports it or a creator sent it, so a
 * user with enough power cannot quietly graft a room onto another's history
 * on a version that has no such marker.
 */
import { ROOM_PREDECESSOR_EVENT } from "../../api/unstable";
import { isRoomId, own, ownString } from "../json";
import type { PowerLevels } from "../power-levels";
import { isVersionMarkerHonoured } from "../room-versions";

/** The room a room was upgraded from. */
export interface RoomPredecessor {
  readonly roomId: string;
  /** The predecessor's last event (optional: absent from newer create events). */
  readonly eventId?: string;
  /** Where it was read: m.room.create, or an MSC3946 state event. */
  readonly source: "create" | "msc3946";
}

/** The room a room was upgraded to (its m.room.tombstone). */
export interface RoomTombstone {
  readonly replacementRoom: string;
  /** The server's or upgrader's message ("This room has been replaced"). */
  readonly body?: string;
  readonly sender: string;
}

/** What the upgrade rules read of a room's state. */
export interface UpgradeStateSource {
  get(type: string, stateKey?: string): { sender?: string; content?: unknown } | undefined;
  readonly powerLevels: Pick<PowerLevels, "rules" | "creators">;
}

/**
 * The predecessor of a room: an honoured MSC3946 predecessor first (it may
 * correct the create event, which can never change), else m.room.create's.
 */
export function predecessorOf(state: UpgradeStateSource): RoomPredecessor | undefined {
  const { rules, creators } = state.powerLevels;
  const dynamic = state.get(ROOM_PREDECESSOR_EVENT.unstable, "");
  if (
    dynamic !== undefined &&
    isVersionMarkerHonoured(rules, dynamic.sender ?? "", creators, "predecessor")
  ) {
    const roomId = ownString(dynamic.content, "predecessor_room_id");
    const eventId = ownString(dynamic.content, "last_known_event_id");
    if (isRoomId(roomId)) return { roomId, ...(eventId !== undefined ? { eventId } : {}), source: "msc3946" };
  }
  const predecessor = own(state.get("m.room.create", "")?.content, "predecessor");
  const roomId = ownString(predecessor, "room_id");
  if (!isRoomId(roomId)) return undefined;
  const eventId = ownString(predecessor, "event_id");
  return { roomId, ...(eventId !== undefined && eventId !== "" ? { eventId } : {}), source: "create" };
}

/** The tombstone of a room, when it has an honoured one naming a replacement. */
export function tombstoneOf(state: UpgradeStateSource): RoomTombstone | undefined {
  const event = state.get("m.room.tombstone", "");
  if (event === undefined) return undefined;
  const replacementRoom = ownString(event.content, "replacement_room");
  // A tombstone with its replacement removed (redacted or emptied) no longer replaces the room.
  if (!isRoomId(replacementRoom)) return undefined;
  const sender = event.sender ?? "";
  const { rules, creators } = state.powerLevels;
  if (!isVersionMarkerHonoured(rules, sender, creators, "tombstone")) return undefined;
  const body = ownString(event.content, "body");
  return { replacementRoom, sender, ...(body !== undefined ? { body } : {}) };
}
