/**
 * The API layer: one namespace per endpoint family, each a set of stateless
 * functions over an HttpApi. Families add their own export lines here.
 */

// Sync, rooms and events (API part 1).
export * as sync from "./sync";
export * as peeking from "./peeking";
export * as rooms from "./rooms";
export * as membership from "./membership";
export * as send from "./send";
export * as delayedEvents from "./delayed-events";
export * as stickyEvents from "./sticky-events";
export * as timeline from "./timeline";
export * as relations from "./relations";
export * as threads from "./threads";
export * as notifications from "./notifications";
export * as receipts from "./receipts";
export * as directory from "./directory";
export * as search from "./search";
export * as unstable from "./unstable";
export { ApiError } from "./errors";
export type { ApiErrorCode } from "./errors";

// Account, authentication, devices, push, profile (API part 2).
export * as accountData from "./account-data";
export * as profile from "./profile";
export * as presence from "./presence";
export * as account from "./account";
export * as register from "./register";
export * as login from "./login";
export * as devices from "./devices";
export * as push from "./push";
export * as filter from "./filter";
export * as capabilities from "./capabilities";
export * as versions from "./versions";
export * as openid from "./openid";
export * as voip from "./voip";
export * as uia from "./uia";

// Media, keys, to-device, directory, discovery, identity server, admin (API part 3).
export * as media from "./media";
export * as keys from "./keys";
export * as roomKeys from "./room-keys";
export * as toDevice from "./to-device";
export * as userDirectory from "./user-directory";
export * as thirdparty from "./thirdparty";
export * as authMetadata from "./auth-metadata";
export * as mutualRooms from "./mutual-rooms";
export * as admin from "./admin";
export * as discovery from "./discovery";
export * as identity from "./identity";
export * as identityLookup from "./identity-lookup";
