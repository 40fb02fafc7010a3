/**
 * The loopback identity server for tests (identity service API v2).
 */
export { startIdentityServer } from "./server";
export type { IdentityMisbehaviour, IdentityServerHandle, IdentityServerOptions } from "./server";
export type { IdentityMedium, IdentityOutboxMessage, IdentityPolicy } from "./store";
export { hashAddress } from "./store";
