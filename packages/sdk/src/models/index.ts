/**
 * The room model's pure rules: room versions, power levels, redaction, the
 * outgoing event lifecycle, relations, room naming and DMs, push rules. No
 * I/O and no timers: the stateful Room and Timeline models build on these.
 */
export * from "./errors";
export * from "./room-versions";
export { roomCreators, roomVersionOf, rulesOfCreateEvent } from "./creators";
export { PowerLevels } from "./power-levels";
export type { PowerLevelsSource } from "./power-levels";
export { CREATOR_LEVEL_WITHOUT_EVENT, POWER_LEVEL_DEFAULTS, parseLevel } from "./power-levels-content";
export type { ParsedPowerLevels } from "./power-levels-content";
export * from "./redaction";
export * from "./event-status";
export * from "./relations";
export * from "./replies";
export * from "./room-name";
export * from "./direct";
export * from "./push-rules";
export * from "./account-data";
// The stateful room model: rooms fed by sync, timelines, threads, the room list.
export { RoomState, ROOM_STATE_DEFAULTS } from "./room/RoomState";
export type { Membership, RoomMember, StateEntry } from "./room/RoomState";
export { RECEIPT_TYPES, RoomReceipts, parseReceiptEvent } from "./room/receipts";
export type { Receipt } from "./room/receipts";
export { Room, RECENT_EVENTS_KEPT, tagsOf } from "./room/Room";
export type { RoomCategory, RoomContext, RoomSnapshot } from "./room/Room";
export { Rooms, batchSourceOf } from "./room/Rooms";
export type { RoomsOptions, SyncBatchSource } from "./room/Rooms";
export { EventChunk } from "./timeline/EventChunk";
export type { ChunkChange } from "./timeline/EventChunk";
export * from "./timeline/pagination";
export { RelationIndex, AGGREGATED_REL_TYPES } from "./timeline/RelationIndex";
export { buildItem, isShownInMain } from "./timeline/TimelineItem";
export type { TimelineItem } from "./timeline/TimelineItem";
export { TimelineSet } from "./timeline/TimelineSet";
export type { TimelineSeed, TimelineSetChange, TimelineSetOptions } from "./timeline/TimelineSet";
export * from "./timeline/TimelineWindow";
export * from "./threads/support";
export { RoomThreads } from "./threads/RoomThreads";
export type { Thread } from "./threads/RoomThreads";
export { ThreadList } from "./threads/ThreadList";
export type { ThreadListInclude, ThreadListOptions } from "./threads/ThreadList";
export { ThreadTimeline } from "./threads/ThreadTimeline";
export type { ThreadTimelineOptions } from "./threads/ThreadTimeline";
export * from "./room-list/filters";
export * from "./room-list/orders";
export { predecessorOf, tombstoneOf } from "./room/upgrades";
export type { RoomPredecessor, RoomTombstone } from "./room/upgrades";
export { RoomListService } from "./room-list/RoomListService";
export type { RoomListOptions } from "./room-list/RoomListService";
