/**
 * Encrypted upload and download against the test homeserver's media
 * repository over loopback HTTP: the server stores only ciphertext typed
 * application/octet-stream, reads go to authenticated media with the v3
 * fallback, a swapped file fails the hash check, and failures are typed.
 */
import { createHash } from "node:crypto";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { registerUser } from "@lattice/testserver/test/helpers";
import { downloadContent, uploadContent } from "../../../src/api/media";
import { AttachmentError } from "../../../src/crypto/attachments/errors";
import {
  downloadEncryptedAttachment,
  uploadEncryptedAttachment,
} from "../../../src/crypto/attachments/transfer";
import { MatrixError } from "../../../src/http/errors";
import { createHttpClient } from "../../../src/http/client";
import type { HttpClient } from "../../../src/http/client";
import { bytesEqual, pattern } from "./helpers";

interface Seen {
  method: string;
  url: URL;
  contentType: string | null;
}

let server: TestServerHandle;
let http: HttpClient;
const seen: Seen[] = [];

beforeAll(async () => {
  server = await startTestServer({ seed: 7 });
  const user = await registerUser(server, "attachments");
  http = createHttpClient({
    baseUrl: server.url,
    accessToken: user.accessToken,
    retry: false,
    fetch: (input, init) => {
      const headers = new Headers(init?.headers);
      seen.push({
        method: init?.method ?? "GET",
        url: new URL(String(input)),
        contentType: headers.get("content-type"),
      });
      return globalThis.fetch(input, init);
    },
  });
});

afterAll(async () => {
  await server.stop();
});

beforeEach(() => {
  seen.length = 0;
});

async function codeOf(promise: Promise<unknown>): Promise<{ code: string; cause: unknown }> {
  try {
    await promise;
    return { code: "resolved", cause: undefined };
  } catch (error) {
    expect(error).toBeInstanceOf(AttachmentError);
    return { code: (error as AttachmentError).code, cause: (error as AttachmentError).cause };
  }
}

describe("encrypted upload and download", () => {
  it("uploads only ciphertext as application/octet-stream and reads it back through authenticated media", async () => {
    const data = pattern(100_000, 1);
    const file = await uploadEncryptedAttachment(http, data);
    expect(file.url).toMatch(/^mxc:\/\//);
    const upload = seen.find((s) => s.method === "POST");
    expect(upload?.url.pathname).toBe("/_matrix/media/v3/upload");
    expect(upload?.contentType).toBe("application/octet-stream");
    expect(upload?.url.searchParams.has("filename")).toBe(false);

    // What the server holds is the ciphertext the hash names, not the file.
    const stored = await downloadContent(http, file.url);
    expect(bytesEqual(stored.data, data)).toBe(false);
    expect(createHash("sha256").update(stored.data).digest("base64").replace(/=+$/, "")).toBe(
      file.hashes.sha256,
    );
    expect(stored.contentType).toBe("application/octet-stream");

    seen.length = 0;
    const plain = await downloadEncryptedAttachment(http, JSON.parse(JSON.stringify(file)));
    expect(bytesEqual(plain, data)).toBe(true);
    expect(seen.map((s) => s.url.pathname)).toEqual([
      `/_matrix/client/v1/media/download/${file.url.slice(6)}`,
    ]);
  });

  it("an empty file round trips", async () => {
    const file = await uploadEncryptedAttachment(http, new Uint8Array(0));
    expect((await downloadEncryptedAttachment(http, file)).length).toBe(0);
  });

  it("falls back to /_matrix/media/v3 when authenticated media is not recognised", async () => {
    const data = pattern(5000, 2);
    const file = await uploadEncryptedAttachment(http, data);
    const remove = server.faults.add({
      path: "/_matrix/client/v1/media/download",
      status: 404,
      errcode: "M_UNRECOGNIZED",
    });
    try {
      seen.length = 0;
      expect(bytesEqual(await downloadEncryptedAttachment(http, file), data)).toBe(true);
      expect(seen.map((s) => s.url.pathname.split("/").slice(0, 5).join("/"))).toEqual([
        "/_matrix/client/v1/media",
        "/_matrix/media/v3/download",
      ]);
    } finally {
      remove();
    }
  });

  it("uses only the legacy endpoint when told authenticated media is absent", async () => {
    const data = pattern(300, 3);
    const file = await uploadEncryptedAttachment(http, data);
    seen.length = 0;
    expect(
      bytesEqual(await downloadEncryptedAttachment(http, file, { authenticatedMedia: false }), data),
    ).toBe(true);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.url.pathname.startsWith("/_matrix/media/v3/download/")).toBe(true);
  });

  it("a file swapped on the server fails the hash check", async () => {
    const file = await uploadEncryptedAttachment(http, pattern(256, 4));
    const other = await uploadContent(http, pattern(256, 5), { contentType: "application/octet-stream" });
    const { code } = await codeOf(downloadEncryptedAttachment(http, { ...file, url: other.content_uri }));
    expect(code).toBe("hash_mismatch");
  });

  it("a malformed file is refused before any request", async () => {
    const file = await uploadEncryptedAttachment(http, pattern(16, 6));
    seen.length = 0;
    for (const bad of [
      { ...file, key: { ...file.key, alg: "A128CBC" } },
      { ...file, url: "mxc://bad host/x" },
      { ...file, v: "v9" },
      null,
    ]) {
      const { code } = await codeOf(downloadEncryptedAttachment(http, bad));
      expect(["malformed_file", "unsupported_version"]).toContain(code);
    }
    expect(seen).toHaveLength(0);
  });

  it("missing media is a download_failed carrying the server's MatrixError", async () => {
    const file = await uploadEncryptedAttachment(http, pattern(16, 7));
    const missing = { ...file, url: `mxc://${server.serverName}/doesNotExist123` };
    const { code, cause } = await codeOf(downloadEncryptedAttachment(http, missing));
    expect(code).toBe("download_failed");
    expect(cause).toBeInstanceOf(MatrixError);
    expect((cause as MatrixError).errcode).toBe("M_NOT_FOUND");
  });

  it("a refused upload is an upload_failed carrying the server's error", async () => {
    const remove = server.faults.add({
      path: "/_matrix/media/v3/upload",
      status: 413,
      errcode: "M_TOO_LARGE",
      times: 1,
    });
    try {
      const { code, cause } = await codeOf(uploadEncryptedAttachment(http, pattern(16, 8)));
      expect(code).toBe("upload_failed");
      expect((cause as MatrixError).errcode).toBe("M_TOO_LARGE");
    } finally {
      remove();
    }
  });
});
