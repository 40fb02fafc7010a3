/**
 * The page of the attachments browser test: encrypts and uploads a file of
 * several pieces as Chromium can (no streamed request body over HTTP/1.1:
 * a Blob of the pieces), downloads it back through the streamed response
 * (hashed with Web Crypto at the end) and compares; then downloads a copy
 * with one flipped byte and reports the error. Driven through
 * `globalThis.attachmentsPage`.
 */
import { downloadContent, uploadContent } from "../../../../src/api/media";
import { PIECE_BYTES } from "../../../../src/crypto/attachments/ctr";
import { AttachmentError } from "../../../../src/crypto/attachments/errors";
import { sha256Engine } from "../../../../src/crypto/attachments/sha256";
import {
  downloadEncryptedAttachment,
  uploadEncryptedAttachment,
} from "../../../../src/crypto/attachments/transfer";
import { createHttpClient } from "../../../../src/http/client";

/** What the page saw. */
export interface AttachmentsOutcome {
  engine: string;
  size: number;
  sameBytes: boolean;
  storedIsCiphertext: boolean;
  tampered: { name: string; code: string; message: string } | "resolved";
}

async function run(baseUrl: string, accessToken: string): Promise<AttachmentsOutcome> {
  const http = createHttpClient({ baseUrl, accessToken, retry: false });
  const data = new Uint8Array(2 * PIECE_BYTES + 4321);
  for (let i = 0; i < data.length; i += 65_536) crypto.getRandomValues(data.subarray(i, i + 65_536));
  const same = (a: Uint8Array, b: Uint8Array): boolean =>
    a.length === b.length && a.every((value, i) => value === b[i]);
  const file = await uploadEncryptedAttachment(http, data);
  const stored = (await downloadContent(http, file.url)).data;
  const back = await downloadEncryptedAttachment(http, file);
  const flipped = new Uint8Array(stored);
  flipped[PIECE_BYTES + 5] = (flipped[PIECE_BYTES + 5] ?? 0) ^ 0x80;
  const { content_uri } = await uploadContent(http, flipped, { contentType: "application/octet-stream" });
  let tampered: AttachmentsOutcome["tampered"] = "resolved";
  try {
    await downloadEncryptedAttachment(http, { ...file, url: content_uri });
  } catch (error) {
    tampered =
      error instanceof AttachmentError
        ? { name: error.name, code: error.code, message: error.message }
        : { name: String(error), code: "", message: "" };
  }
  return {
    engine: sha256Engine(),
    size: back.length,
    sameBytes: same(back, data),
    storedIsCiphertext: stored.length === data.length && !same(stored, data),
    tampered,
  };
}

(globalThis as unknown as { attachmentsPage: { run: typeof run } }).attachmentsPage = { run };
