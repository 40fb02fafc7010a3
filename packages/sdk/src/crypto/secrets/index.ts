/**
 * Secret storage (4S): the AES-HMAC-SHA2 algorithm, key descriptions, the
 * default key and stored secrets.
 */
export {
  DEFAULT_KEY_TYPE,
  DEFAULT_PBKDF2_ITERATIONS,
  KEY_TYPE_PREFIX,
  SecretName,
  SecretStorage,
} from "./SecretStorage";
export type {
  CreatedSecretStorageKey,
  SecretStorageKeyDescription,
  SecretStorageOptions,
  UnlockedKey,
} from "./SecretStorage";
export {
  AES_HMAC_SHA2,
  calculateKeyCheck,
  checkKey,
  decryptAesHmac,
  deriveKeyFromPassphrase,
  encryptAesHmac,
} from "./aesHmac";
export type { AesHmacPayload, Pbkdf2Params } from "./aesHmac";
export { SecretStorageError } from "./errors";
export type { SecretStorageErrorCode } from "./errors";
