/**
 * The content repository through the host (MSC4039): the media requests
 * the kept layers make (config, upload, download, thumbnail) become
 * get_media_config, upload_file and download_file. The widget API has no
 * thumbnail action, so a thumbnail is the whole file (the page scales it).
 * A host without MSC4039, or one that did not grant the capability, makes
 * these answer M_UNRECOGNIZED, as a server without the endpoints would
 * (mediaAbilities says which the page may offer); async upload (create, then PUT) has no
 * widget action and answers M_UNRECOGNIZED always.
 */
import type { WidgetApi } from "@lattice/widget-api";
import { MatrixCapabilities, UnstableApiVersion } from "@lattice/widget-api";
import { MatrixError } from "../http/errors";
import type { BytesResponse, RequestOptions } from "../http/types";

/** The M_UNRECOGNIZED a server without an endpoint answers. */
export function unrecognized(what: string): MatrixError {
  return new MatrixError({
    errcode: "M_UNRECOGNIZED",
    error: `${what} is not available in embedded mode`,
    httpStatus: 404,
  });
}

/** Whether the host speaks an unstable widget API version (its supported_versions). */
export async function hostSupports(widget: WidgetApi, version: string): Promise<boolean> {
  return (await widget.getClientVersions()).includes(version);
}

/** What the page may offer: upload needs upload_file (get_media_config too), showing media download_file. */
export interface MediaAbilities {
  upload: boolean;
  download: boolean;
}

/** The media abilities the host granted (false for both when it lacks MSC4039). */
export async function mediaAbilities(widget: WidgetApi): Promise<MediaAbilities> {
  const speaks = await hostSupports(widget, UnstableApiVersion.MSC4039).catch(() => false);
  return {
    upload: speaks && widget.hasCapability(MatrixCapabilities.MSC4039UploadFile),
    download: speaks && widget.hasCapability(MatrixCapabilities.MSC4039DownloadFile),
  };
}

/** The bytes and type of what download_file answered (a Blob, an ArrayBuffer, a typed array or text). */
async function bytesOf(file: unknown): Promise<BytesResponse> {
  const plain = (data: Uint8Array, contentType: string | null): BytesResponse => ({
    data,
    contentType,
    contentDisposition: null,
  });
  if (typeof Blob !== "undefined" && file instanceof Blob)
    return plain(new Uint8Array(await file.arrayBuffer()), file.type !== "" ? file.type : null);
  if (file instanceof ArrayBuffer) return plain(new Uint8Array(file), null);
  if (ArrayBuffer.isView(file))
    return plain(new Uint8Array(file.buffer, file.byteOffset, file.byteLength), null);
  if (typeof file === "string") return plain(new TextEncoder().encode(file), null);
  throw new MatrixError({ errcode: "M_UNKNOWN", error: "The host sent no file", httpStatus: 502 });
}

/**
 * Serves one media request: `segments` are the path after the media prefix
 * (["config"], ["upload"], ["download", server, id, …], ["thumbnail", server, id]).
 */
export async function mediaRequest(
  widget: WidgetApi,
  segments: readonly string[],
  options: RequestOptions,
): Promise<unknown> {
  const [what, server, id] = segments;
  const path = `/media/${segments.join("/")}`;
  const known =
    (what === "config" && options.method === "GET" && segments.length === 1) ||
    (what === "upload" && options.method === "POST" && segments.length === 1) ||
    ((what === "download" || what === "thumbnail") && options.method === "GET" && id !== undefined);
  const can = await mediaAbilities(widget);
  if (!known || !(what === "download" || what === "thumbnail" ? can.download : can.upload))
    throw unrecognized(path);
  if (what === "config") return await widget.getMediaConfig();
  if (what === "upload") {
    // A body made on demand (an encrypted file) is read whole: the host takes a Blob.
    const raw =
      options.rawBody !== undefined && "open" in options.rawBody
        ? await new Response(options.rawBody.open()).blob()
        : options.rawBody;
    const type = options.contentType ?? "application/octet-stream";
    // A typed array may sit on a shared buffer, which a Blob does not take: copy it.
    const part = raw instanceof Uint8Array ? raw.slice() : raw;
    const blob = part instanceof Blob ? part : new Blob(part !== undefined ? [part] : [], { type });
    const { content_uri } = await widget.uploadFile(blob);
    // The host reports no progress: the whole file is sent when its answer comes.
    options.onUploadProgress?.({ loaded: blob.size, total: blob.size });
    return { content_uri };
  }
  const { file } = await widget.downloadFile(`mxc://${server ?? ""}/${id ?? ""}`);
  const bytes = await bytesOf(file);
  if (options.responseType !== "stream" || options.readBody === undefined) return bytes;
  // The host hands the file whole: give it to the reader as one chunk.
  let chunk: Uint8Array | undefined = bytes.data;
  return options.readBody({
    length: bytes.data.byteLength,
    read: () => {
      const next = chunk;
      chunk = undefined;
      return Promise.resolve(next);
    },
  });
}
