/**
 * The OpenID provider for tests and the local demo (oidc-provider over the
 * test homeserver's users), the browser-less user that drives its pages,
 * and a misbehaving provider for error tests.
 */
export { startOidcProvider, MATRIX_API_SCOPES } from "./provider";
export type { OidcProviderHandle, OidcProviderOptions, OidcTokenOwner } from "./provider";
export { CookieJar, driveProviderLogin } from "./driver";
export type { ProviderLoginOptions } from "./driver";
export { deviceIdFromScope } from "./interactions";
export type { OidcAccountSource } from "./interactions";
export { startOidcTestbed } from "./testbed";
export type { OidcTestbed } from "./testbed";
export { startMisbehavingProvider } from "./misbehaving";
export type { Misbehaviour, MisbehavingProvider } from "./misbehaving";
