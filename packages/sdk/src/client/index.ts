/**
 * The client layer's services and errors, re-exported by the facade.
 */
export * from "./errors";
export { ALWAYS_RUNNING } from "./services/types";
export type { Actor, RoomLookup, RunningGuard } from "./services/types";
export { ReceiptService } from "./services/ReceiptService";
export type { ReadMarkers, ReceiptOptions, ReceiptServiceOptions } from "./services/ReceiptService";
export { TypingService, TYPING_RENEW_MARGIN_MS } from "./services/TypingService";
export type { TypingServiceOptions } from "./services/TypingService";
export { PresenceService } from "./services/PresenceService";
export type { PresenceServiceOptions } from "./services/PresenceService";
export {
  ACCOUNT_DATA_RETRY_BASE_MS,
  ACCOUNT_DATA_SET_ATTEMPTS,
  AccountDataService,
} from "./services/AccountDataService";
export type { AccountDataServiceOptions } from "./services/AccountDataService";
export { ProfileService } from "./services/ProfileService";
export type { ProfileServiceOptions } from "./services/ProfileService";
export { ModerationService } from "./services/ModerationService";
export type { ModerationServiceOptions } from "./services/ModerationService";
export { SEARCH_CONTEXT_EVENTS, SearchService } from "./services/SearchService";
export type { SearchOptions, SearchResults, SearchServiceOptions } from "./services/SearchService";
export { DirectoryService } from "./services/DirectoryService";
export type { DirectoryServiceOptions } from "./services/DirectoryService";
export { URL_PREVIEW_CACHE_SIZE, UrlPreviewService } from "./services/UrlPreviewService";
export type { UrlPreviewServiceOptions } from "./services/UrlPreviewService";
export { CryptoService } from "./services/CryptoService";
export type { CryptoServiceOptions, ToDeviceSink } from "./services/CryptoService";
export { StateSendError, StateService } from "./services/StateService";
export type { StateServiceOptions } from "./services/StateService";
