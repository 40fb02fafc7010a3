/**
 * The crypto layer's public surface. Importing it does not load the
 * WebAssembly engine: only `loadCryptoEngine` and `CryptoMachine.create`
 * (directly or through LazyCrypto) do, with a dynamic import.
 */
export { loadCryptoEngine, isCryptoEngineRequested, cryptoEngineLoadCount } from "./load";
export type { Engine } from "./load";
export { CryptoMachine } from "./CryptoMachine";
export type {
  CryptoMachineOptions,
  CryptoStoreOptions,
  DecryptedUpdate,
  DecryptedUpdateListener,
} from "./CryptoMachine";
export { LazyCrypto, batchNeedsCrypto, deviceNeedsKeys } from "./LazyCrypto";
export type { CryptoMachineFactory, LazyCryptoOptions } from "./LazyCrypto";
export { RoomCryptoState, MEGOLM_ALGORITHM, parseEncryptionContent } from "./RoomCryptoState";
export type { RoomEncryptionSettings } from "./RoomCryptoState";
export type { EncryptedEvent } from "./RoomEncryptor";
export type { ToDeviceResult, ToDeviceTarget } from "./ToDevice";
export { DeviceVerification, verificationOf } from "./devices";
export type { DeviceInfo } from "./devices";
export { DECRYPTION_INFO_KEY, decryptionInfoOf } from "./decrypt";
export type {
  DecryptionFailure,
  DecryptionFailureCode,
  DecryptionInfo,
  RoomEventDecryption,
} from "./decrypt";
export {
  CryptoError,
  ROOM_ENCRYPTION_UNSUPPORTED,
  TO_DEVICE_ENCRYPTION_UNSUPPORTED,
  assertRoomEncryptionSupported,
  assertToDeviceEncryptionSupported,
} from "./errors";
export type { CryptoErrorCode } from "./errors";
export { OutgoingRequests } from "./OutgoingRequests";
export { KeyBackup, BACKUP_ALGORITHM } from "./KeyBackup";
export type { BackupCounts, CreatedBackup } from "./KeyBackup";
export { decodeRecoveryKey, encodeRecoveryKey, RecoveryKeyError } from "./recovery-key";
export * from "./attachments";
export { CRYPTO_STORE_SUFFIXES, deleteCryptoStore } from "./store";
export type { DatabaseDeleter } from "./store";
export { CrossSigning, CrossSigningExistsError } from "./cross-signing";
export type {
  BootstrapCrossSigningOptions,
  BootstrapCrossSigningResult,
  CrossSigningStatus,
} from "./cross-signing";
export { IdentityWarnings } from "./identity";
export type { IdentityWarning, UserTrust, UserTrustListener } from "./identity";
export * from "./verification";
export * from "./secrets";
export { Recovery } from "./recovery";
export type { RecoveryResult, RecoverySecret, RecoverySetUp, RecoverySetUpOptions } from "./recovery";
