/**
 * Media: mxc parsing (malformed URIs are refused), URL building, the
 * authenticated-media choice from the versions document, the v1-to-v3
 * fallback each read declares, preview ts rounding, and the fallback run
 * end to end through the real HTTP client against a loopback server that
 * only knows the legacy endpoints.
 */
import { createServer } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordingHttp } from "../../test/api/recording-http";
import { createHttpClient } from "../http/client";
import { ApiError } from "./errors";
import {
  downloadContent,
  getMediaConfig,
  getThumbnail,
  getUrlPreview,
  mxcToHttp,
  parseMxc,
  roundToMinute,
  supportsAuthenticatedMedia,
  uploadContent,
} from "./media";

describe("parseMxc", () => {
  it("splits a valid mxc URI", () => {
    expect(parseMxc("mxc://example.org/abc_DEF-123")).toEqual({
      serverName: "example.org",
      mediaId: "abc_DEF-123",
    });
    expect(parseMxc("mxc://[::1]:8448/x")).toEqual({ serverName: "[::1]:8448", mediaId: "x" });
  });

  it.each([
    "",
    "https://example.org/abc",
    "mxc://example.org",
    "mxc://example.org/",
    "mxc:///abc",
    "mxc://example.org/abc/def",
    "mxc://example.org/../secret",
    "mxc://exa mple.org/abc",
    "mxc://example.org/abc?x=1",
    "mxc://example.org/ab%2Fc",
    "mxc://user@example.org/abc",
  ])("refuses %j with an INVALID_ARGUMENT ApiError", (mxc) => {
    let thrown: unknown;
    try {
      parseMxc(mxc);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect((thrown as ApiError).code).toBe("INVALID_ARGUMENT");
  });
});

describe("mxcToHttp", () => {
  it("builds an authenticated download URL by default, trimming the base URL's slash", () => {
    expect(mxcToHttp("https://hs.example.org/", "mxc://example.org/abc")).toBe(
      "https://hs.example.org/_matrix/client/v1/media/download/example.org/abc",
    );
  });

  it("builds a legacy URL with an encoded file name", () => {
    expect(
      mxcToHttp("https://hs.example.org", "mxc://example.org/abc", {
        authenticatedMedia: false,
        fileName: "a b/c.png",
      }),
    ).toBe("https://hs.example.org/_matrix/media/v3/download/example.org/abc/a%20b%2Fc.png");
  });

  it("builds a thumbnail URL with its query", () => {
    const url = new URL(
      mxcToHttp("https://hs.example.org", "mxc://example.org/abc", {
        thumbnail: { width: 63.6, height: 32, method: "crop", animated: true },
      }),
    );
    expect(url.pathname).toBe("/_matrix/client/v1/media/thumbnail/example.org/abc");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      width: "64",
      height: "32",
      method: "crop",
      animated: "true",
    });
  });

  it("throws for a malformed mxc URI", () => {
    expect(() => mxcToHttp("https://hs.example.org", "mxc://example.org/../../admin")).toThrow(ApiError);
  });
});

describe("supportsAuthenticatedMedia", () => {
  it("is true from spec version 1.11 on", () => {
    expect(supportsAuthenticatedMedia({ versions: ["r0.6.1", "v1.10"] })).toBe(false);
    expect(supportsAuthenticatedMedia({ versions: ["v1.11"] })).toBe(true);
    expect(supportsAuthenticatedMedia({ versions: ["v1.9", "v1.12"] })).toBe(true);
    expect(supportsAuthenticatedMedia({ versions: ["v2.0"] })).toBe(true);
  });

  it("is true with the MSC3916 stable flag on an older version", () => {
    expect(
      supportsAuthenticatedMedia({
        versions: ["v1.10"],
        unstable_features: { "org.matrix.msc3916.stable": true },
      }),
    ).toBe(true);
    expect(
      supportsAuthenticatedMedia({
        versions: ["v1.10"],
        unstable_features: { "org.matrix.msc3916.stable": false },
      }),
    ).toBe(false);
  });

  it("survives hostile or malformed documents", () => {
    const hostile = JSON.parse(
      '{"versions": "v1.11", "unstable_features": {"__proto__": {"x": true}}}',
    ) as never;
    expect(supportsAuthenticatedMedia(hostile)).toBe(false);
    expect(supportsAuthenticatedMedia({ versions: [1, null, "v1.x", "1.11"] } as never)).toBe(false);
  });
});

describe("media reads declare their route", () => {
  it("falls back from v1 to v3 by default, and not once the choice is made", async () => {
    const http = recordingHttp();
    await getMediaConfig(http);
    await getMediaConfig(http, { authenticatedMedia: true });
    await getMediaConfig(http, { authenticatedMedia: false });
    expect(http.calls.map(({ prefix, path, fallback }) => ({ prefix, path, fallback }))).toEqual([
      {
        prefix: "/_matrix/client/v1/media",
        path: "/config",
        fallback: [{ prefix: "/_matrix/media/v3", path: "/config" }],
      },
      { prefix: "/_matrix/client/v1/media", path: "/config", fallback: undefined },
      { prefix: "/_matrix/media/v3", path: "/config", fallback: undefined },
    ]);
  });

  it("asks for bytes on downloads and thumbnails", async () => {
    const http = recordingHttp();
    await downloadContent(http, "mxc://example.org/abc");
    await getThumbnail(http, "mxc://example.org/abc", { width: 10, height: 20 });
    expect(http.calls.map((c) => c.responseType)).toEqual(["bytes", "bytes"]);
    expect(http.calls[1]?.query).toMatchObject({ width: 10, height: 20 });
  });

  it("refuses a malformed mxc URI before any request", async () => {
    const http = recordingHttp();
    await expect(downloadContent(http, "mxc://evil/../x")).rejects.toBeInstanceOf(ApiError);
    await expect(getThumbnail(http, "mxc://", { width: 1, height: 1 })).rejects.toBeInstanceOf(ApiError);
    expect(http.calls).toHaveLength(0);
  });
});

describe("getUrlPreview", () => {
  it("rounds ts down to the minute", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), (ts) => {
        const rounded = roundToMinute(ts);
        return rounded <= ts && ts - rounded < 60_000 && rounded % 60_000 === 0;
      }),
    );
  });

  it("sends the rounded ts, or none", async () => {
    const http = recordingHttp();
    await getUrlPreview(http, "https://matrix.org", 1510610759999);
    await getUrlPreview(http, "https://matrix.org");
    expect(http.calls[0]?.query).toEqual({ url: "https://matrix.org", ts: 1510610700000 });
    expect(http.calls[1]?.query).toEqual({ url: "https://matrix.org", ts: undefined });
  });
});

describe("uploadContent", () => {
  it("sends the raw body with its type, file name and progress callback", async () => {
    const http = recordingHttp({ ok: { content_uri: "mxc://example.org/new" } });
    const onUploadProgress = (): void => {};
    const body = new Uint8Array([1, 2, 3]);
    const res = await uploadContent(http, body, { fileName: "a.bin", onUploadProgress });
    expect(res.content_uri).toBe("mxc://example.org/new");
    expect(http.calls[0]).toMatchObject({
      method: "POST",
      prefix: "/_matrix/media/v3",
      path: "/upload",
      rawBody: body,
      contentType: "application/octet-stream",
      query: { filename: "a.bin" },
      onUploadProgress,
    });
  });
});

describe("upload content type", () => {
  it("takes a Blob's own type unless the caller names one", async () => {
    const http = recordingHttp();
    const blob = new Blob(["<svg/>"], { type: "image/svg+xml" });
    await uploadContent(http, blob);
    await uploadContent(http, blob, { contentType: "text/plain" });
    await uploadContent(http, new Blob(["x"]));
    expect(http.calls.map((c) => c.contentType)).toEqual([
      "image/svg+xml",
      "text/plain",
      "application/octet-stream",
    ]);
  });
});

describe("legacy fallback over HTTP", () => {
  let server: Server;
  let baseUrl: string;
  const seen: string[] = [];

  beforeAll(async () => {
    // A server from before Matrix 1.11: authenticated media is unrecognised.
    server = createServer((req, res) => {
      const path = (req.url ?? "").split("?")[0] ?? "";
      seen.push(path);
      if (path === "/_matrix/media/v3/download/example.org/abc") {
        res.writeHead(200, { "content-type": "text/plain" }).end("hello");
      } else if (path === "/_matrix/media/v3/config") {
        res.writeHead(200, { "content-type": "application/json" }).end('{"m.upload.size": 1024}');
      } else {
        res
          .writeHead(400, { "content-type": "application/json" })
          .end('{"errcode":"M_UNRECOGNIZED","error":"Unrecognized request"}');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("downloads from v3 when v1 is unrecognised", async () => {
    seen.length = 0;
    const http = createHttpClient({ baseUrl, accessToken: "t", retry: false });
    const res = await downloadContent(http, "mxc://example.org/abc");
    expect(new TextDecoder().decode(res.data)).toBe("hello");
    expect(seen).toEqual([
      "/_matrix/client/v1/media/download/example.org/abc",
      "/_matrix/media/v3/download/example.org/abc",
    ]);
  });

  it("reads the config from v3 when v1 is unrecognised", async () => {
    const http = createHttpClient({ baseUrl, accessToken: "t", retry: false });
    expect(await getMediaConfig(http)).toEqual({ "m.upload.size": 1024 });
  });
});
