/**
 * The auth layer's public surface: the Session and its storage, the token
 * refresher, login and registration, the interactive-auth engine, the
 * account, devices, admin and the identity service; OIDC (oidc/) as a namespace.
 */
export * from "./errors";
export * from "./storage";
export * from "./session";
export * from "./refresh";
export * from "./uia";
export * from "./InteractiveAuth";
export * from "./login";
export * from "./register";
export * from "./threepid";
export * from "./password-reset";
export * from "./account";
export * from "./devices";
export * from "./admin";
export * from "./identity";
export { generateClientSecret, randomString, CLIENT_SECRET_LENGTH } from "./secret";
export type { RandomFn } from "./secret";
export * as oidc from "./oidc";
