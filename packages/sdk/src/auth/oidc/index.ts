/**
 * OIDC (next-generation) sign-in: discovery, dynamic client registration,
 * the authorization code flow with PKCE, code exchange with token checks,
 * refresh, user info and revocation. Built on oauth4webapi.
 */
export { OidcError, OidcErrorMessage } from "./errors";
export type { OidcErrorCode } from "./errors";
export {
  combineMetadata,
  DISCOVERY_TIMEOUT_MS,
  discoverHomeserverAuth,
  discoverIssuer,
  discoverOidc,
  discoverProvider,
  WELL_KNOWN_AUTHENTICATION_KEYS,
} from "./discover";
export type { HomeserverAuthentication, HomeserverDiscoveryOptions, OidcDiscovery } from "./discover";
export { buildRegistrationBody, isOnClientHost, registerClient } from "./register";
export type { ClientInformation } from "./register";
export { buildLoginScope, completeAuthorization, MATRIX_SCOPES, startAuthorization } from "./authorize";
export type {
  AuthorizationRequest,
  CompleteAuthorizationParams,
  OidcSignInResult,
  ResponseMode,
  StartAuthorizationParams,
} from "./authorize";
export { exchangeCode, ID_TOKEN_CLOCK_SKEW_S, verifyIdToken } from "./tokens";
export type { ExchangeCodeParams, ExchangeCodeResult, IdTokenClaims } from "./tokens";
export { REFRESH_TIMEOUT_MS, refreshAccessToken } from "./refresh";
export type { RefreshedTokens, RefreshParams } from "./refresh";
export { getUserInfo, revokeSession, revokeToken } from "./session";
export type { OidcClientRef, UserInfo } from "./session";
export {
  MemorySignInStateStorage,
  STALE_STATE_MS,
  takeSignInState,
  WebSignInStateStorage,
} from "./sign-in-state";
export type { KeyValueStore, SignInState, SignInStateStorage } from "./sign-in-state";
export {
  USABLE_RESPONSE_MODES,
  validateBearerTokenResponse,
  validateIssuerMetadata,
  validateServerMetadata,
} from "./validate";
export type { MetadataCheck, ValidatedServerMetadata } from "./validate";
export { isLoopbackUrl } from "./fetch";
export type { OidcFetch, OidcRequestOptions } from "./fetch";
export { CODE_VERIFIER_LENGTH, cryptoRandom, DEVICE_ID_LENGTH, NONCE_LENGTH, STATE_LENGTH } from "./random";
export type { RandomFn } from "./random";
export type { BearerTokenResponse, ClientRegistrationBody, ValidatedIssuerMetadata } from "./wire-types";
