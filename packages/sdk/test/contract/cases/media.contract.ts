/**
 * Contract cases of the content repository (authed-content-repo.yaml,
 * content-repo.yaml): each read on its authenticated v1 path and on the
 * legacy v3 path, uploads, and the URL preview with its ts rounded down.
 */
import type { ContractCase } from "../types";
import type { BytesResponse } from "../../../src/http/types";
import { expectThat } from "./contract-runner-url";
import * as media from "../../../src/api/media";

const MXC = "mxc://example.org/ascERGshawAWawugaAcauga";
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function checkBytes(result: unknown): void {
  const bytes = result as BytesResponse;
  expectThat(bytes.data.length === PNG.length && bytes.data[1] === 0x50, "downloaded bytes differ");
  expectThat(bytes.contentType === "image/png", "content type not read");
}

export const cases: ContractCase[] = [
  {
    name: "getMediaConfig",
    call: (http) => media.getMediaConfig(http),
    expect: { method: "GET", path: "/_matrix/client/v1/media/config" },
    response: { body: { "m.upload.size": 50000000 } },
    check: (r) =>
      expectThat((r as { "m.upload.size"?: number })["m.upload.size"] === 50000000, "limit not read"),
  },
  {
    name: "getMediaConfig (legacy)",
    call: (http) => media.getMediaConfig(http, { authenticatedMedia: false }),
    expect: { method: "GET", path: "/_matrix/media/v3/config" },
    response: { body: { "m.upload.size": 50000000 } },
  },
  {
    name: "uploadContent",
    call: (http) =>
      media.uploadContent(http, PNG, { fileName: "war and peace.png", contentType: "image/png" }),
    expect: { method: "POST", path: "/_matrix/media/v3/upload", query: { filename: "war and peace.png" } },
    response: { body: { content_uri: "mxc://example.com/AQwafuaFswefuhsfAFAgsw" } },
    check: (r) =>
      expectThat((r as { content_uri: string }).content_uri.startsWith("mxc://"), "no content_uri"),
  },
  {
    name: "createContent",
    call: (http) => media.createContent(http),
    expect: { method: "POST", path: "/_matrix/media/v1/create" },
    response: {
      body: { content_uri: "mxc://example.com/AQwafuaFswefuhsfAFAgsw", unused_expires_at: 1647257217083 },
    },
  },
  {
    name: "uploadContentToMxc",
    call: (http) =>
      media.uploadContentToMxc(http, "mxc://example.com/AQwafuaFswefuhsfAFAgsw", PNG, {
        contentType: "image/png",
      }),
    expect: { method: "PUT", path: "/_matrix/media/v3/upload/example.com/AQwafuaFswefuhsfAFAgsw" },
    response: { body: {} },
  },
  {
    name: "downloadContent",
    call: (http) => media.downloadContent(http, MXC),
    expect: { method: "GET", path: "/_matrix/client/v1/media/download/example.org/ascERGshawAWawugaAcauga" },
    response: { raw: { contentType: "image/png", data: PNG } },
    check: checkBytes,
  },
  {
    name: "downloadContent (file name)",
    call: (http) => media.downloadContent(http, MXC, { fileName: "cool picture.png", timeoutMs: 5000 }),
    expect: {
      method: "GET",
      path: "/_matrix/client/v1/media/download/example.org/ascERGshawAWawugaAcauga/cool%20picture.png",
      query: { timeout_ms: "5000" },
    },
    response: { raw: { contentType: "image/png", data: PNG } },
    check: checkBytes,
  },
  {
    name: "downloadContent (legacy)",
    call: (http) => media.downloadContent(http, MXC, { authenticatedMedia: false }),
    expect: { method: "GET", path: "/_matrix/media/v3/download/example.org/ascERGshawAWawugaAcauga" },
    response: { raw: { contentType: "image/png", data: PNG } },
    check: checkBytes,
  },
  {
    name: "getThumbnail",
    call: (http) =>
      media.getThumbnail(http, MXC, { width: 64, height: 64, method: "scale", animated: false }),
    expect: {
      method: "GET",
      path: "/_matrix/client/v1/media/thumbnail/example.org/ascERGshawAWawugaAcauga",
      query: { width: "64", height: "64", method: "scale", animated: "false" },
    },
    response: { raw: { contentType: "image/png", data: PNG } },
    check: checkBytes,
  },
  {
    name: "getThumbnail (legacy)",
    call: (http) =>
      media.getThumbnail(http, MXC, { width: 32, height: 32, method: "crop" }, { authenticatedMedia: false }),
    expect: {
      method: "GET",
      path: "/_matrix/media/v3/thumbnail/example.org/ascERGshawAWawugaAcauga",
      query: { width: "32", height: "32", method: "crop" },
    },
    response: { raw: { contentType: "image/png", data: PNG } },
  },
  {
    name: "getUrlPreview",
    call: (http) => media.getUrlPreview(http, "https://matrix.org", 1510610716656),
    expect: {
      method: "GET",
      path: "/_matrix/client/v1/media/preview_url",
      query: { url: "https://matrix.org", ts: "1510610700000" },
    },
    response: {
      body: {
        "og:title": "Matrix Blog Post",
        "og:description": "This is a really cool blog post from matrix.org",
        "og:image": "mxc://example.com/ascERGshawAWawugaAcauga",
        "og:image:type": "image/png",
        "og:image:height": 48,
        "og:image:width": 48,
        "matrix:image:size": 102400,
      },
    },
    check: (r) =>
      expectThat((r as { "og:title"?: string })["og:title"] === "Matrix Blog Post", "preview not read"),
  },
  {
    name: "getUrlPreview (legacy)",
    call: (http) =>
      media.getUrlPreview(http, "https://matrix.org", 1510610759999, { authenticatedMedia: false }),
    expect: {
      method: "GET",
      path: "/_matrix/media/v3/preview_url",
      query: { url: "https://matrix.org", ts: "1510610700000" },
    },
    response: { body: { "og:title": "Matrix Blog Post" } },
  },
];
