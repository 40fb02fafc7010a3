/**
 * Media for the embedded room view: the page has no token, so every mxc
 * URI is fetched through the host (the embedded client's HTTP layer turns
 * the download into MSC4039 download_file) and shown through an object
 * URL. The widget API has no thumbnail action: a thumbnail is the whole
 * file, scaled by the page. Encrypted attachments are decrypted in the
 * page as in the app. Only mxc URIs are accepted and blobs keep only media
 * types, as MediaLoader does; dispose() revokes every object URL.
 */
import { downloadContent } from "../../sdk";
import type { HttpApi } from "../../sdk";
import { AppStateError, MediaLoadError } from "../errors";
import { MXC, safeType } from "../MediaLoader";

export class HostMedia {
  private readonly cache = new Map<string, Promise<string>>();
  private readonly urls = new Set<string>();
  private disposed = false;

  constructor(private readonly http: HttpApi) {}

  /** An object URL for the file behind an mxc URI (the thumbnail size is ignored). */
  load(request: { mxc: string }): Promise<string> {
    if (!MXC.test(request.mxc)) return Promise.reject(new MediaLoadError("Not an mxc URI"));
    return this.cached(request.mxc, async () => {
      const r = await downloadContent(this.http, request.mxc, { authenticatedMedia: true });
      return new Blob([r.data.slice()], { type: safeType(r.contentType ?? "") });
    });
  }

  /** An object URL for an encrypted attachment (content.file), decrypted in the page. */
  loadEncrypted(file: unknown, mimetype = "application/octet-stream"): Promise<string> {
    const url = typeof file === "object" && file !== null ? (file as { url?: unknown }).url : undefined;
    if (typeof url !== "string" || !MXC.test(url))
      return Promise.reject(new MediaLoadError("Not an encrypted attachment"));
    return this.cached(`encrypted:${url}`, async () => {
      // The attachment cipher loads with the first encrypted file: many embedded rooms show none.
      const { downloadEncryptedAttachment } = await import("@lattice/sdk/crypto/attachments/transfer");
      const data = await downloadEncryptedAttachment(this.http, file, { authenticatedMedia: true });
      return new Blob([data.slice()], { type: safeType(mimetype) });
    });
  }

  dispose(): void {
    this.disposed = true;
    for (const url of this.urls) URL.revokeObjectURL(url);
    this.urls.clear();
    this.cache.clear();
  }

  private cached(key: string, load: () => Promise<Blob>): Promise<string> {
    let pending = this.cache.get(key);
    if (pending === undefined) {
      pending = load().then((blob) => {
        if (this.disposed) throw new AppStateError("Media loader disposed");
        const url = URL.createObjectURL(blob);
        this.urls.add(url);
        return url;
      });
      this.cache.set(key, pending);
      pending.catch(() => this.cache.delete(key));
    }
    return pending;
  }
}
