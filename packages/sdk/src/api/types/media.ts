/**
 * Wire types of the content repository: authenticated media
 * (api/client-server/authed-content-repo.yaml, /_matrix/client/v1/media) and
 * the legacy media API (content-repo.yaml, /_matrix/media/v3).
 */

/** GET /media/config */
export interface MediaConfig {
  /** The maximum upload size in bytes; absent or null means unknown. */
  "m.upload.size"?: number | null;
  [key: string]: unknown;
}

/** POST /_matrix/media/v3/upload */
export interface UploadResponse {
  content_uri: string;
}

/** POST /_matrix/media/v1/create */
export interface CreateContentResponse {
  content_uri: string;
  /** Milliseconds since the epoch after which the unused media id expires. */
  unused_expires_at?: number;
}

/** Thumbnail resizing method. */
export type ThumbnailMethod = "crop" | "scale";

/**
 * GET /media/preview_url: OpenGraph data, some values replaced with Matrix
 * equivalents (og:image is an mxc URI). Any OpenGraph key may appear.
 */
export interface UrlPreview {
  "og:title"?: string;
  "og:description"?: string;
  "og:image"?: string;
  "og:image:type"?: string;
  "og:image:width"?: number;
  "og:image:height"?: number;
  "matrix:image:size"?: number;
  [key: string]: unknown;
}
