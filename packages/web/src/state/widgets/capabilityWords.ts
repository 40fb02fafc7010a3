/**
 * Plain words for widget capabilities (SPEC §6), for the approval dialog:
 * what a user is agreeing to, not the namespaced string. Unknown
 * capabilities are shown as they are, so nothing is hidden from the user.
 */
import { ANY_ROOM, MatrixCapabilities, parseEventCapability, timelineRoomOf } from "@lattice/widget-api";
import type { EventCapability } from "@lattice/widget-api";

const SIMPLE: ReadonlyMap<string, string> = new Map<string, string>([
  [MatrixCapabilities.Screenshots, "Take screenshots of the widget"],
  [MatrixCapabilities.StickerSending, "Send stickers as you in this room"],
  [MatrixCapabilities.AlwaysOnScreen, "Stay on screen"],
  [MatrixCapabilities.RequiresClient, "Refuse to run without Lattice"],
  [MatrixCapabilities.MSC2931Navigate, "Open links and rooms in Lattice"],
  [MatrixCapabilities.MSC3846TurnServers, "See your TURN servers"],
  [MatrixCapabilities.MSC3973UserDirectorySearch, "Search the user directory"],
  [MatrixCapabilities.MSC4039UploadFile, "Upload files as you"],
  [MatrixCapabilities.MSC4039DownloadFile, "Download files"],
  [MatrixCapabilities.MSC4157SendDelayedEvent, "Schedule events to be sent later as you"],
  [MatrixCapabilities.MSC4157UpdateDelayedEvent, "Cancel, restart or send your scheduled events"],
  [MatrixCapabilities.MSC4407SendStickyEvent, "Send sticky events as you"],
  [MatrixCapabilities.MSC4407ReceiveStickyEvent, "See sticky events"],
  [MatrixCapabilities.MSC4515RtcTransports, "See the call servers your homeserver offers"],
]);

function describeEvent(cap: EventCapability): string {
  const send = cap.direction === "send";
  switch (cap.kind) {
    case "event":
      if (cap.eventType === "m.room.message") {
        if (cap.keyStr === null)
          return send ? "Send messages as you in this room" : "See messages in this room";
        return send
          ? `Send ${cap.keyStr} messages as you in this room`
          : `See ${cap.keyStr} messages in this room`;
      }
      return send
        ? `Send ${cap.eventType} events as you in this room`
        : `See ${cap.eventType} events in this room`;
    case "state_event": {
      const key = cap.keyStr === null ? "" : cap.keyStr === "" ? " (empty key)" : ` for ${cap.keyStr}`;
      return send ? `Change ${cap.eventType} state${key} in this room` : `Read ${cap.eventType} state${key}`;
    }
    case "to_device":
      return send
        ? `Send ${cap.eventType} messages to other devices as you`
        : `Receive ${cap.eventType} messages sent to your device`;
    case "room_account":
      return `Read your ${cap.eventType} room settings`;
  }
}

/** One capability in plain words ("Send messages as you in this room", "Read m.room.member state", ...). */
export function describeCapability(cap: string): string {
  const simple = SIMPLE.get(cap);
  if (simple !== undefined) return simple;
  const room = timelineRoomOf(cap);
  if (room !== null) return room === ANY_ROOM ? "See events in all your rooms" : `See events in room ${room}`;
  const event = parseEventCapability(cap);
  if (event) return describeEvent(event);
  return cap;
}
