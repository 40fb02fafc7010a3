/** org.matrix.msc4039 get_media_config, upload_file and download_file. */

/** get_media_config reply: the homeserver's media config, passed through. */
export interface MediaConfigResponseData {
  "m.upload.size"?: number;
  [key: string]: unknown;
}

/** upload_file request data: a Blob, ArrayBuffer or string, structured-cloned. */
export interface UploadFileRequestData {
  file: unknown;
}

/** upload_file reply. */
export interface UploadFileResponseData {
  content_uri: string;
}

/** download_file request data. */
export interface DownloadFileRequestData {
  content_uri: string;
}

/** download_file reply. */
export interface DownloadFileResponseData {
  file: unknown;
}
