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
export { NO_SERVER_FEATURES, parseSpecVersion, serverFeaturesOf } from "./server-features";
export type { Flavour, ServerFeatures } from "./server-features";
export { ServerInfo } from "./server-info";
export type { ServerInfoOptions } from "./server-info";
export { browserPlatform, nullPlatform } from "./platform";
export type { PlatformAdapter, PlatformHandlers } from "./platform";
export {
  ClientNotRunningError,
  classifySyncFailure,
  GuestForbiddenError,
  PeekingAbortedError,
  StoreInUseError,
  SyncServiceError,
} from "./errors";
export type { GuestAction, SyncFailure, SyncFailureKind } from "./errors";
export {
  assertCanSendReceipt,
  assertCanSendStateEvent,
  assertCanSendTyping,
  canSendEphemeral,
} from "./guests";
export type { GuestContext } from "./guests";
// Simplified sliding sync (MSC4186): the transport, the protocol choice and tagged tokens.
export { SlidingSyncTransport, isUnknownPosError, UNKNOWN_POS_ERRCODE } from "./sliding/SlidingSyncTransport";
export type { SlidingSyncTransportOptions } from "./sliding/SlidingSyncTransport";
export { SelectingSyncTransport, advertisesSlidingSync } from "./sliding/SelectingSyncTransport";
export type {
  ActiveSyncMode,
  SelectingSyncTransportOptions,
  SyncMode,
} from "./sliding/SelectingSyncTransport";
export {
  decodeSlidingToken,
  encodeSlidingToken,
  isSlidingToken,
  SLIDING_TOKEN_TAG,
  v2Since,
} from "./sliding/token";
export type { SlidingPosition } from "./sliding/token";
export { toSyncResponse } from "./sliding/convert";
export { buildSlidingRequest, MODEL_STATE, requiredState } from "./sliding/request";
export type { SlidingRequestOptions } from "./sliding/request";
export type {
  RequiredStateTuple,
  SlidingRoom,
  SlidingSyncRequestBody,
  SlidingSyncResponse,
} from "./sliding/types";
// The loop (shared).
export { SyncLoop, SYNC_CONSTANTS, UNKNOWN_TOKEN_MESSAGE } from "./SyncLoop";
export type {
  SyncBatchHandler,
  SyncBatchMeta,
  SyncLoopOptions,
  SyncRequest,
  SyncState,
  SyncTransport,
} from "./SyncLoop";
// Part A: validation, accumulator and the processing pipeline.
export { parseSyncResponse, SyncParseError, SyncProtocolError } from "./validate/parseSync";
export { isEchoableToken } from "./validate/tokens";
export type { ParseSyncOptions } from "./validate/parseSync";
export { DEFAULT_VALIDATION_LIMITS } from "./validate/limits";
export type { ValidationLimits } from "./validate/limits";
export type {
  ParsedDeviceLists,
  ParsedInvitedRoom,
  ParsedJoinedRoom,
  ParsedKnockedRoom,
  ParsedLeftRoom,
  ParsedRooms,
  ParsedSummary,
  ParsedSync,
  ParsedTimeline,
  UnreadCounts,
} from "./validate/types";
export { SyncAccumulator } from "./accumulator/SyncAccumulator";
export type { AccumulatedCategory, SyncAccumulatorOptions } from "./accumulator/SyncAccumulator";
export { MAX_TIMELINE_ENTRIES } from "./accumulator/JoinedRoomRecord";
export { restoreAccumulator, SnapshotFormatError } from "./accumulator/restore";
export { ROOMS_DATA_VERSION } from "./accumulator/stored-types";
export type { StoredRoomsData } from "./accumulator/stored-types";
export { SyncProcessor, SyncWriteError } from "./processor/SyncProcessor";
export type { SyncProcessorOptions } from "./processor/SyncProcessor";
export { noDecrypt } from "./processor/types";
export type { DecryptHook, ProcessedSync, SyncBatchListener } from "./processor/types";
