/**
 * The voip layer's public surface: the platform interface the web app
 * implements, the 1:1 call and its router, call feeds, mesh group calls,
 * TURN, the pre-call check and the client service.
 */
export type * from "./platform";
export { Call } from "./call/Call";
export type { CallEvents, CallOptions, CallParty, CallSetupStep, CallSignaller } from "./call/Call";
export type { HoldState } from "./call/media";
export { CallRouter, inviteIgnoreReason } from "./call/router";
export type { InviteIgnoreReason } from "./call/router";
export {
  CALL_TIMINGS,
  CallError,
  CallEventType,
  HANGUP_REASONS,
  INVALID_ICE_CONFIG_MESSAGE,
  LOCAL_OFFER_FAILED_MESSAGE,
  NO_USER_MEDIA_MESSAGE,
} from "./call/types";
export type {
  CallContent,
  CallDirection,
  CallErrorCode,
  CallState,
  FeedPurpose,
  HangupReason,
  IncomingCallEvent,
  SdpStreamMetadata,
  StreamMetadata,
} from "./call/types";
export { CallFeed, SPEAKING_THRESHOLD_DB } from "./feed";
export type { InputKind } from "./devices";
export type { FeedMuteState } from "./feed";
export { GroupCall } from "./group/GroupCall";
export { CALL_MEMBER_POWER_LEVEL, withCallMemberPowerLevel } from "./group/powerLevels";
export type { GroupCallOptions, GroupCallTransport } from "./group/GroupCall";
export {
  GROUP_CALL_EVENT,
  GROUP_CALL_MEMBER_EVENT,
  GROUP_CALL_TIMINGS,
  GroupCallError,
  parseGroupCallContent,
  validDevices,
  wantsOutgoingCall,
} from "./group/types";
export type {
  GroupCallContent,
  GroupCallIntent,
  GroupCallMemberContent,
  GroupCallState,
  GroupCallType,
  Participant,
} from "./group/types";
export { runPreCallCheck } from "./precall";
export type { PreCallCheckResult } from "./precall";
export { summariseStats } from "./stats";
export type { CallStatsSummary } from "./stats";
export { TurnServers, TURN_CHECK_INTERVAL_MS } from "./turn";
export { VoipService } from "./VoipService";
export type { VoipOptions, VoipPorts, VoipRoomView } from "./VoipService";
