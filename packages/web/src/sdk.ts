/**
 * The web app's one doorway into the SDK: view models import SDK parts from
 * here and nowhere else, and components never import it at all (GUIDE rule
 * 10). The SDK is a workspace sibling consumed as source; reaching into
 * its modules directly (rather than its index) keeps what Vite bundles for
 * the first screen small.
 */
export { ObservableValue } from "@lattice/sdk/util/observable";
export type { ReadonlyObservable } from "@lattice/sdk/util/observable";
export type { ReadonlyObservableList } from "@lattice/sdk/util/observable-list";
export type { Logger } from "@lattice/sdk/util/logger";

export { createHttpClient } from "@lattice/sdk/http/client";
export type { FetchFn, HttpClient } from "@lattice/sdk/http/client";
export { ConnectionError, MatrixError } from "@lattice/sdk/http/errors";

export { checkHomeserver, discoverHomeserver } from "@lattice/sdk/api/discovery";

export { Session } from "@lattice/sdk/auth/session";
export type { SessionState } from "@lattice/sdk/auth/session";
export { WebSessionStorage } from "@lattice/sdk/auth/storage";
export type { KeyValueStorage } from "@lattice/sdk/auth/storage";
export {
  completeSsoLogin,
  getLoginFlows,
  loginTokenFromUrl,
  loginWithPassword,
  ssoLoginUrl,
} from "@lattice/sdk/auth/login";
export { registerAccount, registerGuest, submitMsisdnToken } from "@lattice/sdk/auth/register";
export type { CheckEmailInfo, TermsPolicy, UiaCallbacks } from "@lattice/sdk/auth/InteractiveAuth";
export { AuthError } from "@lattice/sdk/auth/errors";

export { SyncService } from "@lattice/sdk/sync/SyncService";
export type { SyncState } from "@lattice/sdk/sync/SyncLoop";
export type { SyncFailure } from "@lattice/sdk/sync/errors";
export { browserPlatform } from "@lattice/sdk/sync/platform";
export { FallbackStore } from "@lattice/sdk/store/FallbackStore";
export { IndexedDbStore } from "@lattice/sdk/store/indexeddb/IndexedDbStore";

export { Rooms } from "@lattice/sdk/models/room/Rooms";
export type { Room, RoomSnapshot } from "@lattice/sdk/models/room/Room";
export { RoomListService } from "@lattice/sdk/models/room-list/RoomListService";
export {
  favouritesFilter,
  invitesFilter,
  lowPriorityFilter,
  peopleFilter,
  roomsFilter,
  spaceTreeFilter,
  allOf,
  joinedSuccessorOf,
} from "@lattice/sdk/models/room-list/filters";
export type { RoomFilter, RoomSort } from "@lattice/sdk/models/room-list/filters";
export { badgeOfCounts, roomBadge, threadsBadge } from "@lattice/sdk/models/room-list/badge";
export type { Badge, BadgeLevel } from "@lattice/sdk/models/room-list/badge";

// Rooms, people and room settings (room actions, member list, moderation, settings).
export type { HttpApi } from "@lattice/sdk/http/types";
export type { SyncBatchSource } from "@lattice/sdk/models/room/Rooms";
export type { PresenceEvent } from "@lattice/sdk/api/types/events";
export type { Membership } from "@lattice/sdk/models/room/RoomState";
export type { PowerLevels } from "@lattice/sdk/models/power-levels";
export { StateSendError } from "@lattice/sdk/client/services/StateService";
export { ClientServiceError } from "@lattice/sdk/client/errors";
export { ModelError } from "@lattice/sdk/models/errors";
export { createRoom } from "@lattice/sdk/api/rooms";
export type { CreateRoomRequest } from "@lattice/sdk/api/types/rooms";
export type { PublicRoomsChunk } from "@lattice/sdk/api/types/rooms";
export type { HierarchyRoom } from "@lattice/sdk/api/types/rooms";
export { uploadContent } from "@lattice/sdk/api/media";
export { queryKeys } from "@lattice/sdk/api/keys";
export { requestOpenIdToken } from "@lattice/sdk/api/openid";
export { registerAccount as registerIdentityAccount } from "@lattice/sdk/api/identity";
export { addDirectRoom, DIRECT_EVENT_TYPE, parseDirect, removeDirectRoom } from "@lattice/sdk/models/direct";
export { parseIgnoredUsers } from "@lattice/sdk/models/account-data";
export { parseJoinTarget, parseUserLink } from "@lattice/sdk/models/permalink";
export type { JoinTarget } from "@lattice/sdk/models/permalink";

// The client facade and what the timeline reads (ClientViewModel, RoomViewModel, TimelineViewModel).
export { createClient } from "@lattice/sdk/client";
export { FileTreeError } from "@lattice/sdk/files/errors";
export type { FilesService, FolderListing, FolderMember } from "@lattice/sdk/files/FilesService";
export type { FileEntry, FileDetails } from "@lattice/sdk/files/entries";
export type { FileVersion } from "@lattice/sdk/files/file-ops";
export type { TreeRole } from "@lattice/sdk/files/roles";
export type { UploadHandle, UploadJournal } from "@lattice/sdk/files/uploads";
// Used by the lazy Files view and upload resume only.
export { IndexedDbUploadJournal } from "@lattice/sdk/files/IndexedDbUploadJournal";
export type { Client } from "@lattice/sdk/client";
export type { TimelineItem } from "@lattice/sdk/models/timeline/TimelineItem";
export type { PendingEvent } from "@lattice/sdk/send/types";
export { evaluatePushRules } from "@lattice/sdk/models/push-rules/evaluator";
export { relations as fetchRelations } from "@lattice/sdk/api/relations";
export type { ClientEventWithoutRoomId } from "@lattice/sdk/api/types/events";
export { getEvent } from "@lattice/sdk/api/timeline";
export type { UrlPreview } from "@lattice/sdk/api/types/media";

// The composer and threads (state/Composer*, state/Thread*, state/composer/).
export { BLURHASH_FIELD } from "@lattice/sdk/api/unstable";
export { sendStateEvent } from "@lattice/sdk/api/send";
export type { UploadProgress } from "@lattice/sdk/http/types";
export { ThreadList } from "@lattice/sdk/models/threads/ThreadList";
export type { ThreadListInclude } from "@lattice/sdk/models/threads/ThreadList";
export { ThreadTimeline } from "@lattice/sdk/models/threads/ThreadTimeline";
export type { Thread } from "@lattice/sdk/models/threads/RoomThreads";
export { realScheduler } from "@lattice/sdk/util/scheduler";
export type { DatabaseDeleter } from "@lattice/sdk/crypto/store";

// User settings, browser notifications and search (state/settings, state/notifications, state/search).
export { AccountService } from "@lattice/sdk/auth/account";
export type { AccountCapabilities } from "@lattice/sdk/auth/account";
export { DeviceService } from "@lattice/sdk/auth/devices";
export type { Device } from "@lattice/sdk/api/types/devices";
export type { ThirdPartyIdentifier } from "@lattice/sdk/api/types/account";
export { deletePushRule, getPushRules, setPushRule, setPushRuleEnabled } from "@lattice/sdk/api/push";
export type { PushRule, PushRuleKind, PushRuleset } from "@lattice/sdk/api/types/push";
export type { PresenceState } from "@lattice/sdk/api/types/presence";
export type { SearchResults } from "@lattice/sdk/client/services/SearchService";
export type { SearchResult } from "@lattice/sdk/api/types/search";
export type { CrossSigningStatus } from "@lattice/sdk/crypto/cross-signing";
// Undecryptable messages (state/timeline/utd.ts): the classified failure the crypto layer attaches.
export { decryptionInfoOf } from "@lattice/sdk/crypto/decrypt";
export type { DecryptionFailure } from "@lattice/sdk/crypto/decrypt";

// Verification (state/verification): the SAS flow the dialog drives, through client.crypto.verification.
export type { VerificationFlow, VerificationState } from "@lattice/sdk/crypto/verification/VerificationFlow";
export { UnknownDeviceError } from "@lattice/sdk/crypto/verification/Verifications";

// OIDC sign-in (state/oidc): the SDK's OIDC code is loaded on demand, so password users never download it.
import type * as OidcModule from "@lattice/sdk/auth/oidc/index";
export const loadOidc = (): Promise<typeof OidcModule> => import("@lattice/sdk/auth/oidc/index");
export type { ValidatedIssuerMetadata } from "@lattice/sdk/auth/oidc/index";
export type { OidcSessionInfo, SessionData } from "@lattice/sdk/auth/storage";
export { whoami } from "@lattice/sdk/api/account";
export { updateDevice } from "@lattice/sdk/api/devices";

// Calls (client.voip): the platform types the browser platform implements, and what the call view models read.
export type * from "@lattice/sdk/voip/platform";
export type { Call, CallFeed, CallState, GroupCall } from "@lattice/sdk/voip/index";
export type { PreCallCheckResult } from "@lattice/sdk/voip/precall";
export type { VoipService } from "@lattice/sdk/voip/VoipService";
export type { RtcService } from "@lattice/sdk/rtc/RtcService";
export { GROUP_CALL_EVENT } from "@lattice/sdk/voip/group/types";
export { withCallMemberPowerLevel } from "@lattice/sdk/voip/group/powerLevels";

// Widgets (state/widgets): what the widget driver sends, reads and fetches on the widget's behalf.
export {
  DELAYED_EVENTS_UNSUPPORTED,
  sendDelayedEvent,
  sendDelayedStateEvent,
  updateDelayedEvent,
} from "@lattice/sdk/api/delayed-events";
export { assertStickyEventsSupported, sendStickyEvent } from "@lattice/sdk/api/sticky-events";
export { messages as fetchMessages } from "@lattice/sdk/api/timeline";
export { searchUserDirectory } from "@lattice/sdk/api/user-directory";
export { downloadContent, getMediaConfig } from "@lattice/sdk/api/media";
export { createTxnIdGenerator } from "@lattice/sdk/http/txn";
export type { ProcessedSync } from "@lattice/sdk/sync/processor/types";
export type { ToDeviceEvent } from "@lattice/sdk/api/types/events";

export { createEmbeddedClient } from "@lattice/sdk/embedded/createEmbeddedClient";
export type { EmbeddedClient } from "@lattice/sdk/embedded/createEmbeddedClient";
export { embeddedCapabilities } from "@lattice/sdk/embedded/capabilities";

// Group calls on LiveKit (loaded with the call chunk only).
export { LiveKitCall, offersLiveKit } from "@lattice/sdk/rtc/livekit/call";
export { livekitFoci } from "@lattice/sdk/rtc/livekit/focus";
export type { CallParticipant } from "@lattice/sdk/rtc/livekit/call";
export type { IncomingRing } from "@lattice/sdk/rtc/ring/IncomingRings";
export { checkLiveKitFocus } from "@lattice/sdk/rtc/livekit/precall";
export type { LiveKitCheckResult } from "@lattice/sdk/rtc/livekit/precall";
export { requestSfuToken } from "@lattice/sdk/rtc/livekit/token";
export { CALL_REACTIONS } from "@lattice/sdk/rtc/reactions/content";
export type { ReactionOption } from "@lattice/sdk/rtc/reactions/content";
export { memberKey } from "@lattice/sdk/rtc/reactions/CallReactions";
export type { CallReactions, RaisedHand, ShownReaction } from "@lattice/sdk/rtc/reactions/CallReactions";
