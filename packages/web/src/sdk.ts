/**
 * The web app's one doorway into the SDK: view models import SDK parts from
 * here and nowhere else, and components never import it at all (GUIDE rule
 * 10). The SDK is a workspace sibling consumed as source; reaching into
 * its modules directly (rather than its index) keeps what Vite bundles for
 * the first screen small.
 */
export { ObservableValue } from "../../sdk/src/util/observable";
export type { ReadonlyObservable } from "../../sdk/src/util/observable";
export type { ReadonlyObservableList } from "../../sdk/src/util/observable-list";

export { createHttpClient } from "../../sdk/src/http/client";
export type { FetchFn, HttpClient } from "../../sdk/src/http/client";
export { ConnectionError, MatrixError } from "../../sdk/src/http/errors";

export { checkHomeserver, discoverHomeserver } from "../../sdk/src/api/discovery";

export { Session } from "../../sdk/src/auth/session";
export type { SessionState } from "../../sdk/src/auth/session";
export { WebSessionStorage } from "../../sdk/src/auth/storage";
export type { KeyValueStorage } from "../../sdk/src/auth/storage";
export {
  completeSsoLogin,
  getLoginFlows,
  loginTokenFromUrl,
  loginWithPassword,
  signOut,
  ssoLoginUrl,
} from "../../sdk/src/auth/login";
export { registerAccount, registerGuest, submitMsisdnToken } from "../../sdk/src/auth/register";
export type { CheckEmailInfo, TermsPolicy, UiaCallbacks } from "../../sdk/src/auth/InteractiveAuth";
export { AuthError } from "../../sdk/src/auth/errors";
export { TokenRefresher } from "../../sdk/src/auth/refresh";

export { SyncService } from "../../sdk/src/sync/SyncService";
export type { SyncState } from "../../sdk/src/sync/SyncLoop";
export type { SyncFailure } from "../../sdk/src/sync/errors";
export type { ServerFeatures } from "../../sdk/src/sync/server-features";
export { SyncProcessor } from "../../sdk/src/sync/processor/SyncProcessor";
export { browserPlatform } from "../../sdk/src/sync/platform";
export { FallbackStore } from "../../sdk/src/store/FallbackStore";
export { IndexedDbStore } from "../../sdk/src/store/indexeddb/IndexedDbStore";

export { Rooms } from "../../sdk/src/models/room/Rooms";
export type { Room, RoomSnapshot } from "../../sdk/src/models/room/Room";
export { RoomListService } from "../../sdk/src/models/room-list/RoomListService";
export {
  favouritesFilter,
  invitesFilter,
  lowPriorityFilter,
  peopleFilter,
  roomsFilter,
  spaceFilter,
  allOf,
  joinedSuccessorOf,
} from "../../sdk/src/models/room-list/filters";
export type { RoomFilter, RoomSort } from "../../sdk/src/models/room-list/filters";

// Rooms, people and room settings (room actions, member list, moderation, settings).
export type { HttpApi } from "../../sdk/src/http/types";
export type { SyncBatchSource } from "../../sdk/src/models/room/Rooms";
export type { PresenceEvent } from "../../sdk/src/api/types/events";
export type { Membership } from "../../sdk/src/models/room/RoomState";
export type { PowerLevels } from "../../sdk/src/models/power-levels";
export { StateSendError } from "../../sdk/src/client/services/StateService";
export { ClientServiceError } from "../../sdk/src/client/errors";
export { ModelError } from "../../sdk/src/models/errors";
export { createRoom } from "../../sdk/src/api/rooms";
export type { CreateRoomRequest } from "../../sdk/src/api/types/rooms";
export type { PublicRoomsChunk } from "../../sdk/src/api/types/rooms";
export { uploadContent } from "../../sdk/src/api/media";
export { queryKeys } from "../../sdk/src/api/keys";
export { requestOpenIdToken } from "../../sdk/src/api/openid";
export { registerAccount as registerIdentityAccount } from "../../sdk/src/api/identity";
export { addDirectRoom, DIRECT_EVENT_TYPE, parseDirect } from "../../sdk/src/models/direct";
export { parseIgnoredUsers } from "../../sdk/src/models/account-data";
export { parseJoinTarget, parseUserLink } from "../../sdk/src/models/permalink";
export type { JoinTarget } from "../../sdk/src/models/permalink";

// The client facade and what the timeline reads (ClientViewModel, RoomViewModel, TimelineViewModel).
export { createClient } from "../../sdk/src/client";
export { FileTreeError, FILE_TREE_MESSAGES } from "../../sdk/src/files/errors";
export type { FilesService, FolderListing, FolderMember, FolderRef } from "../../sdk/src/files/FilesService";
export type { FileEntry, FileDetails } from "../../sdk/src/files/entries";
export type { FileVersion } from "../../sdk/src/files/file-ops";
export type { TreeRole } from "../../sdk/src/files/roles";
export type { Client } from "../../sdk/src/client";
export type { TimelineItem } from "../../sdk/src/models/timeline/TimelineItem";
export type { TimelineWindow } from "../../sdk/src/models/timeline/TimelineWindow";
export type { ReactionGroup } from "../../sdk/src/models/relations";
export { applyEdits } from "../../sdk/src/models/relations";
export type { RoomMember } from "../../sdk/src/models/room/RoomState";
export type { Receipt } from "../../sdk/src/models/room/receipts";
export type { PendingEvent } from "../../sdk/src/send/types";
export type { EventStatus } from "../../sdk/src/models/event-status";
export { evaluatePushRules } from "../../sdk/src/models/push-rules/evaluator";
export { relations as fetchRelations } from "../../sdk/src/api/relations";
export type { ClientEventWithoutRoomId } from "../../sdk/src/api/types/events";
export { getEvent } from "../../sdk/src/api/timeline";
export type { UrlPreview } from "../../sdk/src/api/types/media";

// The composer and threads (state/Composer*, state/Thread*, state/composer/).
export { uploadEncryptedAttachment } from "../../sdk/src/crypto/attachments/transfer";
export { BLURHASH_FIELD } from "../../sdk/src/api/unstable";
export { sendStateEvent } from "../../sdk/src/api/send";
export type { UploadProgress } from "../../sdk/src/http/types";
export { ThreadList } from "../../sdk/src/models/threads/ThreadList";
export type { ThreadListInclude } from "../../sdk/src/models/threads/ThreadList";
export { ThreadTimeline } from "../../sdk/src/models/threads/ThreadTimeline";
export type { Thread } from "../../sdk/src/models/threads/RoomThreads";
export { realScheduler } from "../../sdk/src/sync/scheduler";
export { downloadEncryptedAttachment } from "../../sdk/src/crypto/attachments/transfer";
export type { DatabaseDeleter } from "../../sdk/src/crypto/store";

// User settings, browser notifications and search (state/settings, state/notifications, state/search).
export { AccountService } from "../../sdk/src/auth/account";
export type { AccountCapabilities } from "../../sdk/src/auth/account";
export { DeviceService } from "../../sdk/src/auth/devices";
export type { Device } from "../../sdk/src/api/types/devices";
export type { ThirdPartyIdentifier } from "../../sdk/src/api/types/account";
export { deletePushRule, getPushRules, setPushRule, setPushRuleEnabled } from "../../sdk/src/api/push";
export type { PushRule, PushRuleKind, PushRuleset } from "../../sdk/src/api/types/push";
export type { PresenceState } from "../../sdk/src/api/types/presence";
export type { SearchResults } from "../../sdk/src/client/services/SearchService";
export type { SearchResult } from "../../sdk/src/api/types/search";
export type { CrossSigningStatus } from "../../sdk/src/crypto/cross-signing";
// Undecryptable messages (state/timeline/utd.ts): the classified failure the crypto layer attaches.
export { decryptionInfoOf } from "../../sdk/src/crypto/decrypt";
export type { DecryptionFailure, DecryptionFailureCode } from "../../sdk/src/crypto/decrypt";

// Verification (state/verification): the SAS flow the dialog drives, through client.crypto.verification.
export type {
  VerificationFlow,
  VerificationPhase,
  VerificationState,
} from "../../sdk/src/crypto/verification/VerificationFlow";
export type { SasEmoji } from "../../sdk/src/crypto/verification/emoji";
export { UnknownDeviceError } from "../../sdk/src/crypto/verification/Verifications";

// OIDC sign-in (state/oidc): the SDK's OIDC code is loaded on demand, so password users never download it.
import type * as OidcModule from "../../sdk/src/auth/oidc/index";
export const loadOidc = (): Promise<typeof OidcModule> => import("../../sdk/src/auth/oidc/index");
export type {
  OidcErrorCode,
  SignInStateStorage,
  ValidatedIssuerMetadata,
} from "../../sdk/src/auth/oidc/index";
export type { OidcSessionInfo, SessionData } from "../../sdk/src/auth/storage";
export { whoami } from "../../sdk/src/api/account";
export { updateDevice } from "../../sdk/src/api/devices";
