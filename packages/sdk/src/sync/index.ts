/**
 * The sync engine: loop, processing, filters, members, guests, left rooms,
 * peeking, capabilities and the service that wires them.
 */
// Part B: the sync service around the loop.
export { SyncService } from "./SyncService";
export type { SyncProcessorLike, SyncServiceOptions } from "./SyncService";
export { HttpSyncTransport, withoutRetries } from "./transport";
export type { HttpSyncTransportOptions, StateAfterMode, SyncFilterSource } from "./transport";
export {
  buildSyncFilter,
  DEFAULT_INITIAL_SYNC_LIMIT,
  isUnknownFilterError,
  SyncFilterManager,
} from "./filters";
export type { SyncFilterManagerOptions, SyncFilterOptions } from "./filters";
export {
  CLIENT_OPTIONS_VERSION,
  clientOptionsFilterIdStore,
  isCompatible,
  toStoredOptions,
} from "./client-options";
export type { CacheOptions, FilterIdStore } from "./client-options";
export { MemberLoader, OobMemberState, memberEvents } from "./members";
export type { MemberLoaderOptions } from "./members";
export { LeftRoomsLoader, leftRoomsOf } from "./left-rooms";
export type { LeftRoomsLoaderOptions } from "./left-rooms";
export { PEEK_RETRY_MS, readPeekAnswer, startPeeking } from "./peeking";
export type { PeekOptions, PeekSession } from "./peeking";
export { CAPABILITIES_REFRESH_MS, CapabilitiesService } from "./capabilities";
export type { CapabilitiesServiceOptions } from "./capabilities";
export { browserPlatform, nullPlatform } from "./platform";
export type { PlatformAdapter, PlatformHandlers } from "./platform";
export {
  ClientNotRunningError,
  GuestForbiddenError,
  PeekingAbortedError,
  StoreInUseError,
  SyncServiceError,
} from "./errors";
export type { GuestAction } from "./errors";
export {
  assertCanSendReceipt,
  assertCanSendStateEvent,
  assertCanSendTyping,
  canSendEphemeral,
} from "./guests";
export type { GuestContext } from "./guests";
// The loop (shared).
export { SyncLoop, SYNC_CONSTANTS, UNKNOWN_TOKEN_MESSAGE } from "./SyncLoop";
export type {
  SyncBatchHandler,
  SyncBatchMeta,
  SyncLogger,
  SyncLoopOptions,
  SyncRequest,
  SyncState,
  SyncTransport,
} from "./SyncLoop";
export { realScheduler, randomBetween } from "./scheduler";
export type { Scheduler } from "./scheduler";
