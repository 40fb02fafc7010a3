/**
 * Errors of the crypto layer and the guards a client without crypto uses:
 * the spec's two messages (SPEC §8) for an encrypted room and an encrypted
 * to-device send when encryption is off.
 */

/** SPEC §8: sending into an encrypted room without crypto. */
export const ROOM_ENCRYPTION_UNSUPPORTED =
  "This room is configured to use encryption, but your client does not support encryption.";

/** SPEC §8: an encrypted to-device send without crypto. */
export const TO_DEVICE_ENCRYPTION_UNSUPPORTED =
  "Cannot encrypt to device event, your client does not support encryption.";

/** What went wrong in the crypto layer. */
export type CryptoErrorCode =
  | "crypto_disabled"
  | "room_not_encrypted"
  | "unsupported_algorithm"
  | "unknown_device"
  | "engine_failure"
  | "request_failed";

/** A failure of the crypto layer; `cause` carries the engine's or the HTTP layer's error. */
export class CryptoError extends Error {
  override readonly name = "CryptoError";
  constructor(
    readonly code: CryptoErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * The guard the send path calls before sending into a room: throws the
 * spec's message when the room is encrypted and the client has no crypto.
 */
export function assertRoomEncryptionSupported(roomIsEncrypted: boolean, cryptoEnabled: boolean): void {
  if (roomIsEncrypted && !cryptoEnabled) {
    throw new CryptoError("crypto_disabled", ROOM_ENCRYPTION_UNSUPPORTED);
  }
}

/** The guard for encrypted to-device sends: throws the spec's message without crypto. */
export function assertToDeviceEncryptionSupported(cryptoEnabled: boolean): void {
  if (!cryptoEnabled) throw new CryptoError("crypto_disabled", TO_DEVICE_ENCRYPTION_UNSUPPORTED);
}
