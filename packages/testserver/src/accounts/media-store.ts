/**
 * The media repository: uploaded files by media id, in memory.
 */
import type { ServerContext } from "../core/context";

/** Largest upload, as advertised by m.upload.size (50 MiB). */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

export interface MediaItem {
  mediaId: string;
  contentType: string;
  filename?: string;
  data: Buffer;
  uploader: string;
  createdTs: number;
}

export class MediaStore {
  private readonly items = new Map<string, MediaItem>();
  /** Ids reserved by POST /media/v1/create, awaiting their upload. */
  private readonly pending = new Map<string, string>();

  constructor(private readonly ctx: ServerContext) {}

  /** Stores a file; returns its mxc URI. */
  put(data: Buffer, contentType: string, uploader: string, filename?: string): string {
    const mediaId = this.ctx.ids.randomString(24);
    this.keep(mediaId, data, contentType, uploader, filename);
    return `mxc://${this.ctx.serverName}/${mediaId}`;
  }

  private keep(
    mediaId: string,
    data: Buffer,
    contentType: string,
    uploader: string,
    filename?: string,
  ): void {
    this.items.set(mediaId, {
      mediaId,
      contentType,
      filename,
      data,
      uploader,
      createdTs: this.ctx.clock.now(),
    });
  }

  /** Reserves a media id for an asynchronous upload. */
  create(uploader: string): string {
    const mediaId = this.ctx.ids.randomString(24);
    this.pending.set(mediaId, uploader);
    return mediaId;
  }

  /** Completes an asynchronous upload; "forbidden" for another uploader, "exists" when already uploaded. */
  fill(
    mediaId: string,
    data: Buffer,
    contentType: string,
    uploader: string,
    filename?: string,
  ): "ok" | "unknown" | "forbidden" | "exists" {
    if (this.items.has(mediaId)) return "exists";
    const owner = this.pending.get(mediaId);
    if (owner === undefined) return "unknown";
    if (owner !== uploader) return "forbidden";
    this.pending.delete(mediaId);
    this.keep(mediaId, data, contentType, uploader, filename);
    return "ok";
  }

  /** A local media item. */
  get(serverName: string, mediaId: string): MediaItem | undefined {
    if (serverName !== this.ctx.serverName) return undefined;
    return this.items.get(mediaId);
  }
}
