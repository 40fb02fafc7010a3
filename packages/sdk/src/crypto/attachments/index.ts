/**
 * Encrypted attachments (the Matrix "Sending encrypted attachments" format):
 * AES-256-CTR with a SHA-256 of the ciphertext, validation of the untrusted
 * EncryptedFile JSON, and upload/download over the content repository.
 */
export { AttachmentError } from "./errors";
export type { AttachmentErrorCode } from "./errors";
export { decryptAttachment, encryptAttachment } from "./cipher";
export type { EncryptAttachmentOptions, EncryptedAttachment, RandomBytes } from "./cipher";
export { validateEncryptedFile } from "./validate";
export type { AttachmentDecodeOptions } from "./validate";
export { downloadEncryptedAttachment, uploadEncryptedAttachment } from "./transfer";
export type { DownloadEncryptedOptions, UploadEncryptedOptions } from "./transfer";
export type { EncryptedFile, EncryptedFileHashes, EncryptedFileInfo, EncryptedFileJwk } from "./wire-types";
