/**
 * Upload and download of encrypted attachments over the content repository
 * (api/media.ts). Upload encrypts, sends the ciphertext as
 * application/octet-stream with no file name (the server learns neither the
 * name nor the type of the file) and fills `url` with the mxc URI. Download
 * validates the EncryptedFile before any request, reads the ciphertext from
 * the authenticated media endpoint (falling back to /_matrix/media/v3 unless
 * the caller chose one), and decrypts it after the hash check.
 */
import { downloadContent, parseMxc, uploadContent } from "../../api/media";
import type { MediaReadOptions } from "../../api/media";
import type { HttpApi, UploadProgress } from "../../http/types";
import type { EncryptAttachmentOptions } from "./cipher";
import { decryptAttachment, encryptAttachment } from "./cipher";
import { AttachmentError } from "./errors";
import type { AttachmentDecodeOptions } from "./validate";
import { validateEncryptedFile } from "./validate";
import type { EncryptedFile } from "./wire-types";

/** Options of `uploadEncryptedAttachment`. */
export interface UploadEncryptedOptions extends EncryptAttachmentOptions {
  /** Progress of the ciphertext upload (its size equals the plaintext's). */
  onUploadProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/**
 * Encrypts `data`, uploads the ciphertext and returns the complete
 * EncryptedFile for the event's `file` (or `info.thumbnail_file`). Throws
 * AttachmentError: crypto_failure, or upload_failed with the HTTP layer's
 * error as `cause` (a ConnectionError of kind "aborted" after an abort).
 */
export async function uploadEncryptedAttachment(
  http: HttpApi,
  data: Uint8Array,
  options: UploadEncryptedOptions = {},
): Promise<EncryptedFile> {
  const encrypted = await encryptAttachment(
    data,
    options.randomBytes ? { randomBytes: options.randomBytes } : {},
  );
  let contentUri: string;
  try {
    const response = await uploadContent(http, encrypted.data, {
      contentType: "application/octet-stream",
      ...(options.onUploadProgress ? { onUploadProgress: options.onUploadProgress } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    });
    contentUri = response.content_uri;
    // A URI we could not download from later is a failed upload, not a file.
    parseMxc(contentUri);
  } catch (error) {
    throw new AttachmentError("upload_failed", "Encrypted file upload failed", { cause: error });
  }
  return { url: contentUri, ...encrypted.file };
}

/** Options of `downloadEncryptedAttachment`. */
export type DownloadEncryptedOptions = MediaReadOptions & AttachmentDecodeOptions;

/**
 * Downloads and decrypts the file an untrusted EncryptedFile describes.
 * Throws AttachmentError: malformed_file or unsupported_version before any
 * request; download_failed with the HTTP layer's error as `cause`;
 * hash_mismatch, counter_wrap or crypto_failure after the download.
 */
export async function downloadEncryptedAttachment(
  http: HttpApi,
  file: unknown,
  options: DownloadEncryptedOptions = {},
): Promise<Uint8Array<ArrayBuffer>> {
  const decode: AttachmentDecodeOptions =
    options.allowLegacyVersions !== undefined ? { allowLegacyVersions: options.allowLegacyVersions } : {};
  const valid = validateEncryptedFile(file, decode);
  let ciphertext: Uint8Array;
  try {
    const response = await downloadContent(http, valid.url, {
      ...(options.authenticatedMedia !== undefined ? { authenticatedMedia: options.authenticatedMedia } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    ciphertext = response.data;
  } catch (error) {
    throw new AttachmentError("download_failed", "Encrypted file download failed", { cause: error });
  }
  return decryptAttachment(ciphertext, valid, decode);
}
