/**
 * Wire types of encrypted attachments: the EncryptedFile object of the
 * client-server spec (definitions/encrypted_file.yaml), as it travels in the
 * `file` and `info.thumbnail_file` fields of m.room.message content.
 */

/** The JSON Web Key of an attachment: a single-use AES-256 key for AES-CTR. */
export interface EncryptedFileJwk {
  /** Key type; must be "oct". */
  kty: "oct";
  /** Key operations; must contain at least "encrypt" and "decrypt". */
  key_ops: string[];
  /** Algorithm; must be "A256CTR". */
  alg: "A256CTR";
  /** The 32-byte key as URL-safe unpadded base64. */
  k: string;
  /** Extractable; must be true (a W3C extension to JWK). */
  ext: true;
}

/** Hashes of the ciphertext, by algorithm name; sha256 is the one clients must support. */
export interface EncryptedFileHashes {
  /** SHA-256 of the ciphertext, unpadded base64. */
  sha256: string;
  [algorithm: string]: string;
}

/** Information on an encrypted media blob: where it lives and how to decrypt it. */
export interface EncryptedFile {
  /** The mxc URI of the ciphertext in the content repository. */
  url: string;
  key: EncryptedFileJwk;
  /** The 128-bit initial counter block, unpadded base64 (low 64 bits zero in v2). */
  iv: string;
  hashes: EncryptedFileHashes;
  /** Protocol version; the spec requires "v2". */
  v: string;
}

/** An EncryptedFile before upload: everything but the mxc URI. */
export type EncryptedFileInfo = Omit<EncryptedFile, "url">;
