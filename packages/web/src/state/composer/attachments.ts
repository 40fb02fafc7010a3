/**
 * Attachments: a file becomes m.image, m.video, m.audio or m.file content.
 * Images are probed first (dimensions, a thumbnail for large ones, a
 * blurhash: the browser does that, behind the MediaProbe interface so Node
 * tests can run the rest), then the file (and thumbnail) are uploaded with
 * progress, encrypted in encrypted rooms with the SDK's attachment helpers.
 */
import { BLURHASH_FIELD, uploadContent } from "../../sdk";
import type { HttpApi, UploadProgress } from "../../sdk";
import type { Content } from "./content";

/** What a probe learnt about a file. */
export interface ProbedMedia {
  readonly width?: number;
  readonly height?: number;
  readonly durationMs?: number;
  readonly blurhash?: string;
  readonly thumbnail?: { readonly data: Blob; readonly width: number; readonly height: number };
}

/** Reads media metadata (the browser implementation decodes images on a canvas). */
export interface MediaProbe {
  probe(file: Blob): Promise<ProbedMedia>;
}

/** A probe that learns nothing (files, or where no decoder exists). */
export const NO_PROBE: MediaProbe = { probe: () => Promise.resolve({}) };

/** The file to send. */
export interface OutgoingFile {
  readonly name: string;
  readonly type: string;
  readonly data: Blob;
}

/** The msgtype a MIME type is sent as. */
export function msgtypeOf(mime: string): "m.image" | "m.video" | "m.audio" | "m.file" {
  if (/^image\/(png|jpeg|gif|webp|avif|bmp)$/i.test(mime)) return "m.image";
  if (mime.startsWith("video/")) return "m.video";
  if (mime.startsWith("audio/")) return "m.audio";
  return "m.file";
}

export interface UploadAttachmentOptions {
  encrypted: boolean;
  probe?: MediaProbe;
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
}

async function upload(
  http: HttpApi,
  data: Blob,
  name: string | undefined,
  options: UploadAttachmentOptions,
): Promise<{ url: string } | { file: Content }> {
  const progress = options.onProgress ? { onUploadProgress: options.onProgress } : {};
  const signal = options.signal ? { signal: options.signal } : {};
  if (options.encrypted) {
    const bytes = new Uint8Array(await data.arrayBuffer());
    // The attachment cipher loads with the first encrypted upload.
    const { uploadEncryptedAttachment } = await import("@lattice/sdk/crypto/attachments/transfer");
    const file = await uploadEncryptedAttachment(http, bytes, { ...progress, ...signal });
    return { file: file as unknown as Content };
  }
  const response = await uploadContent(http, data, {
    ...(name !== undefined ? { fileName: name } : {}),
    contentType: data.type || "application/octet-stream",
    ...progress,
    ...signal,
  });
  return { url: response.content_uri };
}

/** Uploads a file (and its thumbnail) and returns the message content to send. */
export async function uploadAttachment(
  http: HttpApi,
  file: OutgoingFile,
  options: UploadAttachmentOptions,
): Promise<Content> {
  const msgtype = msgtypeOf(file.type);
  const probed =
    msgtype === "m.image" || msgtype === "m.video" ? await probeSafely(options.probe, file.data) : {};
  const info: Content = { mimetype: file.type || "application/octet-stream", size: file.data.size };
  if (probed.width !== undefined && probed.height !== undefined) {
    info["w"] = probed.width;
    info["h"] = probed.height;
  }
  if (probed.durationMs !== undefined) info["duration"] = Math.round(probed.durationMs);
  if (probed.blurhash !== undefined) info[BLURHASH_FIELD.unstable] = probed.blurhash;
  const main = await upload(http, file.data, file.name, options);
  if (probed.thumbnail !== undefined) {
    const thumb = probed.thumbnail;
    // The thumbnail is small: its progress is not reported separately.
    const uploaded = await upload(http, thumb.data, undefined, { ...options, onProgress: undefined });
    if ("url" in uploaded) info["thumbnail_url"] = uploaded.url;
    else info["thumbnail_file"] = uploaded.file;
    info["thumbnail_info"] = {
      w: thumb.width,
      h: thumb.height,
      mimetype: thumb.data.type,
      size: thumb.data.size,
    };
  }
  return { msgtype, body: file.name, filename: file.name, info, ...main };
}

async function probeSafely(probe: MediaProbe | undefined, data: Blob): Promise<ProbedMedia> {
  try {
    return (await probe?.probe(data)) ?? {};
  } catch {
    // An image the browser cannot decode is still sent, without dimensions.
    return {};
  }
}
