/**
 * Media for the page: an mxc URI is fetched from the homeserver's
 * authenticated /_matrix/client/v1/media endpoints with the session's
 * Authorization header (never a token in a URL) when the server has them
 * (ServerFeatures.authenticatedMedia: v1.11 or MSC3916), else from the
 * legacy /_matrix/media/v3 endpoints with no credentials at all; and shown
 * through an object URL. Loads are shared and cached per URL; dispose() revokes every
 * object URL. Only mxc URIs are accepted: remote HTML cannot make the app
 * request anything else. Encrypted attachments (content.file) are
 * downloaded and decrypted by the SDK's attachment helpers, then shown the
 * same way. Every blob gets a media type only (image, video, audio, never
 * SVG): anything else becomes application/octet-stream.
 */
import type { FetchFn, HttpApi, Session } from "../sdk";
import { AppStateError, MediaLoadError } from "./errors";

/** A well-formed mxc URI (nothing else is ever fetched). */
export const MXC = /^mxc:\/\/[A-Za-z0-9.:[\]-]+\/[A-Za-z0-9_-]+$/;

export interface MediaRequest {
  mxc: string;
  /** A thumbnail of about this size instead of the full file. */
  thumbnail?: { width: number; height: number };
}

export class MediaLoader {
  private readonly cache = new Map<string, Promise<string>>();
  private readonly urls = new Set<string>();
  private disposed = false;

  constructor(
    private readonly session: Session,
    private readonly fetchFn: FetchFn = (input, init) => fetch(input, init),
    /** The client's HTTP API, for encrypted attachments. */
    private readonly http?: HttpApi,
    /**
     * Whether the server has authenticated media (the client's
     * ServerFeatures); undefined (or no answer) tries v1 with the header.
     */
    private readonly authenticatedMedia: () => Promise<boolean | undefined> = () => Promise.resolve(true),
  ) {}

  /**
   * An object URL for an encrypted attachment (an EncryptedFile from
   * content.file, validated by the SDK), decrypted in the page.
   */
  loadEncrypted(file: unknown, mimetype = "application/octet-stream"): Promise<string> {
    const url = typeof file === "object" && file !== null ? (file as { url?: unknown }).url : undefined;
    if (this.http === undefined || typeof url !== "string" || !MXC.test(url))
      return Promise.reject(new MediaLoadError("Not an encrypted attachment"));
    const http = this.http;
    const key = `encrypted:${url}`;
    let pending = this.cache.get(key);
    if (pending === undefined) {
      pending = this.mediaChoice()
        // The attachment cipher loads with the first encrypted file, off the first screen.
        .then(async (choice) => {
          const { downloadEncryptedAttachment } = await import("@lattice/sdk/crypto/attachments/transfer");
          return downloadEncryptedAttachment(http, file, choice);
        })
        .then((data) => this.keep(URL.createObjectURL(new Blob([data], { type: safeType(mimetype) }))));
      this.cache.set(key, pending);
      pending.catch(() => this.cache.delete(key));
    }
    return pending;
  }

  /** An object URL for the media; rejects for anything that is not an mxc URI. */
  load(request: MediaRequest): Promise<string> {
    if (!MXC.test(request.mxc)) return Promise.reject(new MediaLoadError("Not an mxc URI"));
    const key = `${request.mxc} ${request.thumbnail ? `${request.thumbnail.width}x${request.thumbnail.height}` : ""}`;
    let pending = this.cache.get(key);
    if (pending === undefined) {
      pending = this.mediaChoice().then(({ authenticatedMedia }) => {
        const url = this.session.mediaUrl(request.mxc, {
          ...(request.thumbnail ? { thumbnail: { ...request.thumbnail, method: "scale" as const } } : {}),
          ...(authenticatedMedia === false ? { authenticatedMedia: false } : {}),
        });
        return this.fetchObjectUrl(url, authenticatedMedia !== false);
      });
      this.cache.set(key, pending);
      pending.catch(() => this.cache.delete(key));
    }
    return pending;
  }

  private async mediaChoice(): Promise<{ authenticatedMedia?: boolean }> {
    const known = await this.authenticatedMedia().catch(() => undefined);
    return known !== undefined ? { authenticatedMedia: known } : {};
  }

  private async fetchObjectUrl(url: string, authenticated: boolean): Promise<string> {
    // Legacy media needs no credentials: they are sent only to the authenticated endpoints.
    const res = await this.fetchFn(url, authenticated ? { headers: this.session.authorizationFor(url) } : {});
    if (!res.ok) throw new MediaLoadError(`Media request failed (${res.status})`, res.status);
    const blob = await res.blob();
    // The server's (or uploader's) content type is not trusted: an object URL is same-origin, so
    // one typed text/html or SVG would be a page of ours if opened; only media types are kept.
    const type = safeType(blob.type);
    return this.keep(URL.createObjectURL(type === blob.type ? blob : new Blob([blob], { type })));
  }

  private keep(objectUrl: string): string {
    if (this.disposed) {
      URL.revokeObjectURL(objectUrl);
      throw new AppStateError("Media loader disposed");
    }
    this.urls.add(objectUrl);
    return objectUrl;
  }

  dispose(): void {
    this.disposed = true;
    for (const url of this.urls) URL.revokeObjectURL(url);
    this.urls.clear();
    this.cache.clear();
  }
}

/** Only media types are given to blobs (a decrypted file claiming text/html must not render as a page). */
export function safeType(mimetype: string): string {
  return /^(image|video|audio)\/[\w.+-]+$/.test(mimetype) && mimetype !== "image/svg+xml"
    ? mimetype
    : "application/octet-stream";
}
