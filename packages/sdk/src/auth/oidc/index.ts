/**
 * OIDC (next-generation) sign-in: discovery, dynamic client registration,
 * the authorization code flow with PKCE, code exchange with token checks,
 * refresh, user info and revocation. Built on oauth4webapi.
 */
export { OidcError, OidcErrorMessage } from "./errors";
export type { OidcErrorCode } from "./errors";
export { DISCOVERY_TIMEOUT_MS, discoverIssuer, discoverOidc, discoverProvider } from "./discover";
export type { OidcDiscovery } from "./discover";
export { buildRegistrationBody, isOnClientHost, registerClient } from "./register";
export type { ClientInformation } from "./register";
export { buildLoginScope, completeAuthorization, MATRIX_SCOPES, startAuthorization } from "./authorize";
export type {
  AuthorizationRequest,
  CompleteAuthorizationParams,
  OidcSignInResult,
  StartAuthorizationParams,
} from "./authorize";
export { exchangeCode } from "./tokens";
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
export { validateBearerTokenResponse, validateIssuerMetadata } from "./validate";
export { isLoopbackUrl } from "./fetch";
export type { OidcFetch, OidcRequestOptions } from "./fetch";
export { CODE_VERIFIER_LENGTH, cryptoRandom, DEVICE_ID_LENGTH, NONCE_LENGTH, STATE_LENGTH } from "./random";
export type { RandomFn } from "./random";
export type { BearerTokenResponse, ClientRegistrationBody, ValidatedIssuerMetadata } from "./wire-types";
