/**
 * URL previews: the server's OpenGraph data for a link, asked with the time
 * rounded down to the minute (SPEC §7), cached per URL and minute so a
 * timeline showing one link many times asks once. Never for a link in an
 * encrypted room: the server would learn what was said there, so the
 * answer is null without a request. A failed request (a 403, any error
 * answer, no answer) is remembered per URL for FAILED_PREVIEW_TTL_MS: the
 * same error is given again without a request, so a refused link is not
 * asked for again each time its room is shown.
 */
import { getUrlPreview, roundToMinute } from "../../api/media";
import type { UrlPreview } from "../../api/types/media";
import type { HttpApi } from "../../http/types";
import type { RoomLookup } from "./types";

/** Cached previews kept at most; the oldest go first. */
export const URL_PREVIEW_CACHE_SIZE = 500;
/** How long a URL whose preview failed is not asked for again: an hour. */
export const FAILED_PREVIEW_TTL_MS = 60 * 60 * 1000;

export interface UrlPreviewServiceOptions {
  http: HttpApi;
  /** When given, a preview for a link in an encrypted room is refused (null). */
  rooms?: RoomLookup;
  now?: () => number;
  /**
   * Authenticated (v1) or legacy (v3) media, or where to read it (the
   * client's ServerFeatures; undefined from it means unknown). Unknown: v1
   * with a fallback to v3 on an unrecognised-endpoint answer.
   */
  authenticatedMedia?: boolean | (() => Promise<boolean | undefined>);
}

export class UrlPreviewService {
  private readonly cache = new Map<string, Promise<UrlPreview>>();
  /** URL -> the failure and when it happened, oldest first (bounded like the cache). */
  private readonly failed = new Map<string, { error: unknown; at: number }>();

  constructor(private readonly options: UrlPreviewServiceOptions) {}

  private async mediaChoice(): Promise<{ authenticatedMedia?: boolean }> {
    const option = this.options.authenticatedMedia;
    const known = typeof option === "function" ? await option() : option;
    return known !== undefined ? { authenticatedMedia: known } : {};
  }

  /** The preview of a URL, or null when the link was posted in an encrypted room. */
  async preview(url: string, roomId?: string): Promise<UrlPreview | null> {
    if (roomId !== undefined && this.options.rooms?.get(roomId).getSnapshot().isEncrypted === true) {
      return null;
    }
    const now = (this.options.now ?? Date.now)();
    const failure = this.failed.get(url);
    if (failure !== undefined) {
      if (now - failure.at < FAILED_PREVIEW_TTL_MS) throw failure.error;
      this.failed.delete(url);
    }
    const ts = roundToMinute(now);
    const key = `${ts} ${url}`;
    let pending = this.cache.get(key);
    if (pending === undefined) {
      pending = this.mediaChoice().then((choice) => getUrlPreview(this.options.http, url, ts, choice));
      this.cache.set(key, pending);
      this.evict();
      pending.catch((error: unknown) => {
        if (this.cache.get(key) === pending) this.cache.delete(key);
        this.failed.set(url, { error, at: now });
        while (this.failed.size > URL_PREVIEW_CACHE_SIZE) {
          const oldest = this.failed.keys().next();
          if (oldest.done === true) break;
          this.failed.delete(oldest.value);
        }
      });
    }
    return await pending;
  }

  /** Drops every cached preview. */
  clear(): void {
    this.cache.clear();
    this.failed.clear();
  }

  private evict(): void {
    while (this.cache.size > URL_PREVIEW_CACHE_SIZE) {
      const oldest = this.cache.keys().next();
      if (oldest.done === true) return;
      this.cache.delete(oldest.value);
    }
  }
}
