/**
 * Wire types of end-to-end encryption key management: device and one-time
 * keys (api/client-server/keys.yaml, definitions/device_keys.yaml,
 * definitions/one_time_keys.yaml) and cross-signing
 * (cross_signing.yaml, definitions/cross_signing_key.yaml).
 */
import type { AuthDict } from "./auth";

/** Signatures: user id to key id (algorithm:key) to signature. */
export type Signatures = Record<string, Record<string, string>>;

/** A device's identity keys, signed by the device. */
export interface DeviceKeys {
  user_id: string;
  device_id: string;
  algorithms: string[];
  /** Key id (algorithm:device_id) to public key. */
  keys: Record<string, string>;
  signatures: Signatures;
  [key: string]: unknown;
}

/** Device keys as /keys/query returns them, with unsigned data. */
export interface QueriedDeviceKeys extends DeviceKeys {
  unsigned?: { device_display_name?: string; [key: string]: unknown };
}

/** A signed key object (e.g. signed_curve25519). */
export interface SignedKey {
  key: string;
  /** True for fallback keys. */
  fallback?: boolean;
  signatures: Signatures;
}

/** Key id (algorithm:key_id) to either an unsigned key string or a signed key object. */
export type OneTimeKeys = Record<string, string | SignedKey>;

/** A cross-signing key (master, self-signing or user-signing). */
export interface CrossSigningKey {
  user_id: string;
  usage: string[];
  /** Exactly one entry: ed25519:<public key> to the public key. */
  keys: Record<string, string>;
  signatures?: Signatures;
}

/** POST /keys/upload body. */
export interface UploadKeysRequest {
  device_keys?: DeviceKeys;
  one_time_keys?: OneTimeKeys;
  fallback_keys?: OneTimeKeys;
}

/** POST /keys/upload */
export interface UploadKeysResponse {
  /** Algorithm to count of unclaimed one-time keys. */
  one_time_key_counts: Record<string, number>;
}

/** POST /keys/query body. */
export interface QueryKeysRequest {
  /** User id to device ids (empty for all devices). */
  device_keys: Record<string, string[]>;
  timeout?: number;
}

/** POST /keys/query */
export interface QueryKeysResponse {
  /** Server name to the error it gave. */
  failures?: Record<string, Record<string, unknown>>;
  device_keys?: Record<string, Record<string, QueriedDeviceKeys>>;
  master_keys?: Record<string, CrossSigningKey>;
  self_signing_keys?: Record<string, CrossSigningKey>;
  user_signing_keys?: Record<string, CrossSigningKey>;
}

/** POST /keys/claim body. */
export interface ClaimKeysRequest {
  /** User id to device id to key algorithm. */
  one_time_keys: Record<string, Record<string, string>>;
  timeout?: number;
}

/** POST /keys/claim */
export interface ClaimKeysResponse {
  failures?: Record<string, Record<string, unknown>>;
  /** User id to device id to key id to key. */
  one_time_keys: Record<string, Record<string, OneTimeKeys>>;
}

/** GET /keys/changes */
export interface KeyChangesResponse {
  changed?: string[];
  left?: string[];
}

/** POST /keys/device_signing/upload body. */
export interface UploadCrossSigningKeysRequest {
  master_key?: CrossSigningKey;
  self_signing_key?: CrossSigningKey;
  user_signing_key?: CrossSigningKey;
  /** Interactive authentication for this request. */
  auth?: AuthDict;
}

/** POST /keys/signatures/upload body: user id to key id to the signed object. */
export type UploadSignaturesRequest = Record<string, Record<string, DeviceKeys | CrossSigningKey>>;

/** POST /keys/signatures/upload */
export interface UploadSignaturesResponse {
  /** User id to key id to the error for that signature. */
  failures?: Record<string, Record<string, Record<string, unknown>>>;
}
