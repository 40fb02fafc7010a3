/**
 * The content repository: media config, upload (plain and async create),
 * download, thumbnails and URL previews, plus the pure helpers around mxc
 * URIs. Reads prefer authenticated media (/_matrix/client/v1/media, Matrix
 * 1.11) and fall back to the legacy /_matrix/media/v3 endpoints when the
 * server does not recognise them; a caller that already knows the answer
 * from the versions document (see `supportsAuthenticatedMedia`) can pick one
 * up front and save the failed round trip.
 */
import type {
  BodyReader,
  BytesResponse,
  HttpApi,
  RawBody,
  RequestOptions,
  UploadProgress,
} from "../http/types";
import { Prefix, encodePath } from "../http/types";
import { ApiError } from "./errors";
import type {
  CreateContentResponse,
  MediaConfig,
  ThumbnailMethod,
  UploadResponse,
  UrlPreview,
} from "./types/media";
import type { VersionsResponse } from "./types/server";
import { AUTHENTICATED_MEDIA_FEATURE } from "./unstable";
import { hasUnstableFeature } from "./versions";

/** The legacy media prefix of the async-upload create call (MSC2246, Matrix 1.7). */
const MEDIA_V1_LEGACY = "/_matrix/media/v1";

/**
 * Which media API to use. true: authenticated only; false: legacy v3 only;
 * undefined: authenticated, falling back to legacy on an unrecognised endpoint.
 */
export interface MediaApiChoice {
  authenticatedMedia?: boolean;
}

/** The parts of an mxc://<serverName>/<mediaId> URI. */
export interface MxcParts {
  serverName: string;
  mediaId: string;
}

// A server name is a hostname (DNS name, IPv4 or bracketed IPv6) with an optional port.
const SERVER_NAME = /^(?:\[[0-9A-Fa-f:.]{2,45}\]|[0-9A-Za-z.-]{1,255})(?::\d{1,5})?$/;
// Media ids are opaque but the spec restricts them to this alphabet.
const MEDIA_ID = /^[0-9A-Za-z_-]+$/;

/**
 * Splits an mxc URI into server name and media id. Throws an ApiError
 * (INVALID_ARGUMENT) for anything else, so a hostile URI never becomes a
 * path that escapes the media endpoints.
 */
export function parseMxc(mxc: string): MxcParts {
  const match = /^mxc:\/\/([^/]+)\/([^/?#]+)$/.exec(mxc);
  const serverName = match?.[1];
  const mediaId = match?.[2];
  if (
    serverName === undefined ||
    mediaId === undefined ||
    !SERVER_NAME.test(serverName) ||
    !MEDIA_ID.test(mediaId)
  ) {
    throw new ApiError("INVALID_ARGUMENT", `Invalid mxc URI: ${mxc.slice(0, 200)}`);
  }
  return { serverName, mediaId };
}

/** Parses a version string like "v1.11" into [major, minor], or null. */
function parseVersion(version: string): [number, number] | null {
  const match = /^v(\d+)\.(\d+)$/.exec(version);
  return match?.[1] !== undefined && match[2] !== undefined ? [Number(match[1]), Number(match[2])] : null;
}

/**
 * True when the versions document promises authenticated media: a spec
 * version of 1.11 or later, or the MSC3916 stable flag in unstable_features.
 */
export function supportsAuthenticatedMedia(versions: VersionsResponse): boolean {
  if (hasUnstableFeature(versions, AUTHENTICATED_MEDIA_FEATURE.unstable)) return true;
  const list: unknown = (versions as { versions?: unknown }).versions;
  return (Array.isArray(list) ? (list as unknown[]) : []).some((v) => {
    const parsed = typeof v === "string" ? parseVersion(v) : null;
    return parsed !== null && (parsed[0] > 1 || (parsed[0] === 1 && parsed[1] >= 11));
  });
}

/** Options of `mxcToHttp`. */
export interface MxcToHttpOptions {
  /** Build a thumbnail URL of this size instead of a download URL. */
  thumbnail?: { width: number; height: number; method?: ThumbnailMethod; animated?: boolean };
  /** Use the authenticated media endpoints (default true); they need the access token as bearer. */
  authenticatedMedia?: boolean;
  /** A file name for the download URL (ignored for thumbnails). */
  fileName?: string;
}

/**
 * Builds the HTTP URL of an mxc URI on the given homeserver. Pure: no
 * request is made. Throws an ApiError for a malformed mxc URI.
 */
export function mxcToHttp(baseUrl: string, mxc: string, options: MxcToHttpOptions = {}): string {
  const { serverName, mediaId } = parseMxc(mxc);
  const prefix = options.authenticatedMedia === false ? Prefix.MediaV3 : Prefix.MediaV1;
  const base = baseUrl.replace(/\/+$/, "");
  if (options.thumbnail) {
    const { width, height, method, animated } = options.thumbnail;
    const query = new URLSearchParams({
      width: String(Math.round(width)),
      height: String(Math.round(height)),
    });
    if (method !== undefined) query.set("method", method);
    if (animated !== undefined) query.set("animated", String(animated));
    return `${base}${prefix}${encodePath`/thumbnail/${serverName}/${mediaId}`}?${query.toString()}`;
  }
  const path =
    options.fileName !== undefined
      ? encodePath`/download/${serverName}/${mediaId}/${options.fileName}`
      : encodePath`/download/${serverName}/${mediaId}`;
  return `${base}${prefix}${path}`;
}

/** The prefix and fallback for a read under `path` on the chosen media API. */
function mediaRoute(
  path: string,
  choice: MediaApiChoice,
): Pick<RequestOptions, "prefix" | "path" | "fallback"> {
  if (choice.authenticatedMedia === false) return { prefix: Prefix.MediaV3, path };
  if (choice.authenticatedMedia === true) return { prefix: Prefix.MediaV1, path };
  return { prefix: Prefix.MediaV1, path, fallback: [{ prefix: Prefix.MediaV3, path }] };
}

/** GET /media/config: the content repository's limits (v1, falling back to v3). */
export function getMediaConfig(http: HttpApi, choice: MediaApiChoice = {}): Promise<MediaConfig> {
  return http.request<MediaConfig>({ method: "GET", ...mediaRoute("/config", choice) });
}

/** The upload's content type: the caller's, else a Blob's own, else application/octet-stream. */
function contentTypeOf(body: RawBody, contentType: string | undefined): string {
  if (contentType !== undefined && contentType !== "") return contentType;
  if (typeof Blob !== "undefined" && body instanceof Blob && body.type !== "") return body.type;
  return "application/octet-stream";
}

/** Options of `uploadContent`. */
export interface UploadOptions {
  /** The file name the server stores with the content. */
  fileName?: string;
  /** MIME type of the body; defaults to a Blob's type, else application/octet-stream. */
  contentType?: string;
  onUploadProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** POST /_matrix/media/v3/upload: uploads raw bytes and returns their mxc URI. */
export function uploadContent(
  http: HttpApi,
  body: RawBody,
  options: UploadOptions = {},
): Promise<UploadResponse> {
  return http.request<UploadResponse>({
    method: "POST",
    prefix: Prefix.MediaV3,
    path: "/upload",
    ...uploadFields(body, options),
  });
}

/** The request fields both upload routes share: the body, its type, the file name and the transfer options. */
function uploadFields(body: RawBody, options: Omit<UploadOptions, "fileName"> & { fileName?: string }) {
  return {
    rawBody: body,
    contentType: contentTypeOf(body, options.contentType),
    ...(options.fileName !== undefined ? { query: { filename: options.fileName } } : {}),
    ...(options.onUploadProgress ? { onUploadProgress: options.onUploadProgress } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  };
}

/** POST /_matrix/media/v1/create: reserves an mxc URI for a later upload. */
export function createContent(http: HttpApi): Promise<CreateContentResponse> {
  return http.request<CreateContentResponse>({
    method: "POST",
    prefix: MEDIA_V1_LEGACY,
    path: "/create",
    body: {},
  });
}

/** PUT /_matrix/media/v3/upload/{serverName}/{mediaId}: fills an mxc URI reserved by `createContent`. */
export async function uploadContentToMxc(
  http: HttpApi,
  mxc: string,
  body: RawBody,
  options: Omit<UploadOptions, "fileName"> & { fileName?: string } = {},
): Promise<Record<string, never>> {
  const { serverName, mediaId } = parseMxc(mxc);
  return http.request<Record<string, never>>({
    method: "PUT",
    prefix: Prefix.MediaV3,
    path: encodePath`/upload/${serverName}/${mediaId}`,
    ...uploadFields(body, options),
  });
}

/** Options of the media reads. */
export interface MediaReadOptions extends MediaApiChoice {
  /** How long the server may wait for content that is not uploaded yet. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** What both download forms add to the request: the server's wait for the upload, and the caller's signal. */
function downloadExtras(options: MediaReadOptions): Pick<RequestOptions, "query" | "signal"> {
  return {
    ...(options.timeoutMs !== undefined ? { query: { timeout_ms: options.timeoutMs } } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  };
}

/**
 * GET /media/download/{serverName}/{mediaId}[/{fileName}]: the content's
 * bytes. Rejects with an ApiError for a malformed mxc URI, before any request.
 */
export async function downloadContent(
  http: HttpApi,
  mxc: string,
  options: MediaReadOptions & { fileName?: string } = {},
): Promise<BytesResponse> {
  const { serverName, mediaId } = parseMxc(mxc);
  const path =
    options.fileName !== undefined
      ? encodePath`/download/${serverName}/${mediaId}/${options.fileName}`
      : encodePath`/download/${serverName}/${mediaId}`;
  return http.request<BytesResponse>({
    method: "GET",
    ...mediaRoute(path, options),
    responseType: "bytes",
    ...downloadExtras(options),
  });
}

/**
 * GET /media/download/{serverName}/{mediaId}, read as it streams in: the
 * body goes to `readBody` chunk by chunk and its result is the answer (an
 * encrypted file is hashed and decrypted while it downloads). `readBody`
 * starts afresh if the HTTP layer retries. ApiError for a malformed mxc URI.
 */
export async function downloadContentStream<T>(
  http: HttpApi,
  mxc: string,
  readBody: (body: BodyReader) => Promise<T>,
  options: MediaReadOptions = {},
): Promise<T> {
  const { serverName, mediaId } = parseMxc(mxc);
  return http.request<T>({
    method: "GET",
    ...mediaRoute(encodePath`/download/${serverName}/${mediaId}`, options),
    responseType: "stream",
    readBody,
    ...downloadExtras(options),
  });
}

/** Thumbnail parameters. */
export interface ThumbnailParams {
  width: number;
  height: number;
  method?: ThumbnailMethod;
  /** Prefer an animated thumbnail (Matrix 1.11). */
  animated?: boolean;
}

/** GET /media/thumbnail/{serverName}/{mediaId}: a thumbnail's bytes (ApiError for a malformed mxc URI). */
export async function getThumbnail(
  http: HttpApi,
  mxc: string,
  params: ThumbnailParams,
  options: MediaReadOptions = {},
): Promise<BytesResponse> {
  const { serverName, mediaId } = parseMxc(mxc);
  return http.request<BytesResponse>({
    method: "GET",
    ...mediaRoute(encodePath`/thumbnail/${serverName}/${mediaId}`, options),
    responseType: "bytes",
    query: {
      width: Math.round(params.width),
      height: Math.round(params.height),
      method: params.method,
      animated: params.animated,
      timeout_ms: options.timeoutMs,
    },
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

/** Rounds a timestamp down to the minute, so previews of one URL share a cache entry. */
export function roundToMinute(ts: number): number {
  return Math.floor(ts / 60_000) * 60_000;
}

/**
 * GET /media/preview_url: OpenGraph data for a URL. `ts` (ms) is rounded
 * down to the minute before it is sent.
 */
export function getUrlPreview(
  http: HttpApi,
  url: string,
  ts?: number,
  choice: MediaApiChoice = {},
): Promise<UrlPreview> {
  return http.request<UrlPreview>({
    method: "GET",
    ...mediaRoute("/preview_url", choice),
    query: { url, ts: ts === undefined ? undefined : roundToMinute(ts) },
  });
}
