/**
 * Interop: media upload, download and thumbnails on every server of the
 * fixture. Which read API is used comes from the versions document
 * (authenticated media from Matrix 1.11 or MSC3916, else the legacy
 * /_matrix/media/v3 endpoints), and with no choice given the reads try the
 * authenticated API and fall back. The image is a real PNG made here, so
 * the server's thumbnailer has something to scale.
 */
import { deflateSync } from "node:zlib";
import { expect, it } from "vitest";
import {
  downloadContent,
  getThumbnail,
  supportsAuthenticatedMedia,
  uploadContent,
} from "../../src/api/media";
import type { Client } from "../../src/client";
import { PIECE_BYTES } from "../../src/crypto/attachments/ctr";
import {
  downloadEncryptedAttachment,
  uploadEncryptedAttachment,
} from "../../src/crypto/attachments/transfer";
import { clientsOf } from "./clients";
import { describeEachServer } from "./servers";

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, "ascii");
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** A width x height RGB PNG with a colour gradient. */
function png(width: number, height: number): Uint8Array {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) raw.set([(x * 4) & 255, (y * 4) & 255, 128], row + 1 + x * 3);
  }
  const signature = Uint8Array.from([137, 80, 78, 71, 13, 10, 26, 10]);
  return Buffer.concat([
    signature,
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", new Uint8Array()),
  ]);
}

/** The size of a PNG (from IHDR), or undefined for other formats. */
function pngSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  if (bytes[0] !== 137 || bytes[1] !== 80) return undefined;
  const view = Buffer.from(bytes);
  return { width: view.readUInt32BE(16), height: view.readUInt32BE(20) };
}

describeEachServer("media", (ctx) => {
  const start = clientsOf(ctx);

  async function upload(client: Client, bytes: Uint8Array): Promise<string> {
    const { content_uri: mxc } = await uploadContent(client.http, bytes, {
      contentType: "image/png",
      fileName: "gradient.png",
    });
    expect(mxc).toMatch(
      new RegExp(`^mxc://${ctx.server.serverName.replace(/[.:]/g, "\\$&")}/[0-9A-Za-z_-]+$`),
    );
    return mxc;
  }

  it("the versions document says which media API the server has", async () => {
    const alice = await start("alice");
    const authenticated = supportsAuthenticatedMedia(await alice.versions());
    // Synapse 1.67 (2022) predates authenticated media (Matrix 1.11, 2024): it only has /_matrix/media/v3.
    expect(authenticated).toBe(ctx.kind !== "synapse-1.67");
  });

  it("uploads an image, downloads the same bytes and a scaled thumbnail through the detected API", async () => {
    const alice = await start("alice");
    const bob = await start("bob");
    const authenticatedMedia = supportsAuthenticatedMedia(await alice.versions());
    const image = png(640, 480);
    const mxc = await upload(alice, image);

    // Another user reads it, as a room member would.
    const download = await downloadContent(bob.http, mxc, { authenticatedMedia });
    expect(Buffer.from(download.data).equals(Buffer.from(image))).toBe(true);
    expect(download.contentType).toBe("image/png");

    const thumb = await getThumbnail(
      bob.http,
      mxc,
      { width: 96, height: 96, method: "scale" },
      { authenticatedMedia },
    );
    expect(thumb.contentType).toMatch(/^image\/(png|jpeg|webp)$/);
    expect(thumb.data.byteLength).toBeGreaterThan(0);
    const size = pngSize(thumb.data);
    if (ctx.kind === "testserver") {
      // The test homeserver does not scale images; it answers the original (the spec allows a larger thumbnail).
      expect(size).toEqual({ width: 640, height: 480 });
    } else if (size) {
      // Synapse answers its nearest pre-made size at least as large as asked, smaller than the original,
      // with the aspect ratio kept.
      expect(size.width).toBeGreaterThanOrEqual(96);
      expect(size.width).toBeLessThan(640);
      expect(size.width / size.height).toBeCloseTo(4 / 3, 1);
    } else {
      expect(thumb.contentType).toBe("image/jpeg");
    }
  });

  it("with no API chosen, reads try authenticated media and fall back to the legacy endpoints", async () => {
    const alice = await start("alice");
    const seen: string[] = [];
    const watched = await start("carol", {
      httpOptions: {
        fetch: async (input, init) => {
          const res = await fetch(input, init);
          if (input.includes("/media/"))
            seen.push(`${new URL(input).pathname.split("/").slice(0, 5).join("/")} ${res.status}`);
          return res;
        },
      },
    });
    const image = png(16, 16);
    const mxc = await upload(alice, image);
    const download = await downloadContent(watched.http, mxc);
    expect(Buffer.from(download.data).equals(Buffer.from(image))).toBe(true);
    const thumb = await getThumbnail(watched.http, mxc, { width: 8, height: 8, method: "crop" });
    expect(thumb.data.byteLength).toBeGreaterThan(0);
    if (ctx.kind === "synapse-1.67") {
      // No authenticated media there: each read is refused on v1, then answered on v3.
      expect(seen.filter((s) => s.startsWith("/_matrix/media/v3")).length).toBe(2);
    } else {
      expect(seen.every((s) => s.startsWith("/_matrix/client/v1/media") && s.endsWith(" 200"))).toBe(true);
    }
  });

  it("an encrypted file of several pieces, uploaded as a stream, comes back byte-identical to another user", async () => {
    const alice = await start("alice");
    const bob = await start("bob");
    const authenticatedMedia = supportsAuthenticatedMedia(await alice.versions());
    const data = new Uint8Array(3 * PIECE_BYTES + 1234);
    for (let i = 0; i < data.length; i += 65_536) crypto.getRandomValues(data.subarray(i, i + 65_536));
    // Streamed with its Content-Length (Synapse refuses an upload without one).
    const file = await uploadEncryptedAttachment(alice.http, data, { streamBody: true });
    const stored = await downloadContent(bob.http, file.url, { authenticatedMedia });
    expect(stored.data.byteLength).toBe(data.byteLength);
    expect(Buffer.from(stored.data).equals(Buffer.from(data))).toBe(false);
    const back = await downloadEncryptedAttachment(bob.http, JSON.parse(JSON.stringify(file)), {
      authenticatedMedia,
    });
    expect(Buffer.from(back).equals(Buffer.from(data))).toBe(true);
  });
});
