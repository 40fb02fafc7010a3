/**
 * The namespaced capability strings a widget can request (SPEC §6), spelled
 * as matrix-widget-api spells them so existing widgets keep working.
 */

/** Simple (non-event) capabilities. */
export const MatrixCapabilities = {
  Screenshots: "m.capability.screenshot",
  StickerSending: "m.sticker",
  AlwaysOnScreen: "m.always_on_screen",
  RequiresClient: "io.element.requires_client",
  MSC2931Navigate: "org.matrix.msc2931.navigate",
  MSC3846TurnServers: "town.robin.msc3846.turn_servers",
  MSC3973UserDirectorySearch: "org.matrix.msc3973.user_directory_search",
  MSC4039UploadFile: "org.matrix.msc4039.upload_file",
  MSC4039DownloadFile: "org.matrix.msc4039.download_file",
  MSC4157SendDelayedEvent: "org.matrix.msc4157.send.delayed_event",
  MSC4157UpdateDelayedEvent: "org.matrix.msc4157.update_delayed_event",
  MSC4407SendStickyEvent: "org.matrix.msc4407.send.sticky_event",
  MSC4407ReceiveStickyEvent: "org.matrix.msc4407.receive.sticky_event",
  MSC4515RtcTransports: "org.matrix.msc4515.rtc_transports",
} as const;

/** "Any room" in timeline capabilities and read_events room_ids. */
export const ANY_ROOM = "*";

/** Prefix of timeline capabilities: `org.matrix.msc2762.timeline:<room id or *>`. */
export const TIMELINE_PREFIX = "org.matrix.msc2762.timeline:";

/** The timeline capability for one room, or for any room with ANY_ROOM. */
export function timelineCapability(roomId: string): string {
  return `${TIMELINE_PREFIX}${roomId}`;
}

/** The room id a timeline capability names ("*" for any room), or null if it is not one. */
export function timelineRoomOf(capability: string): string | null {
  return capability.startsWith(TIMELINE_PREFIX) ? capability.slice(TIMELINE_PREFIX.length) : null;
}
