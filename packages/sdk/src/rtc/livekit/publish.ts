/**
 * Publishing our tracks on the SFU, retried. livekit-client's publish can
 * fail (a negotiation error, the server's publish answer not coming) or
 * hang while the publisher peer connection never connects; before this the
 * connection published once, and a failed or stalled first publish left a
 * member in the call with no outgoing media and nothing said. Each track is
 * now tried up to PUBLISH_ATTEMPTS times, each try bounded by
 * PUBLISH_TIMEOUT_MS, backing off 1, 2, 4… s (at most 8 s) between tries;
 * the caller is told of every failed try (to say so in words) and of the
 * outcome.
 */
import { backoffDelay } from "../../util/backoff";
import type { BackoffPolicy } from "../../util/backoff";
import type { MediaTrack } from "../../voip/platform";
import type { LkLocalParticipant } from "./api";

/** Tries per track before we give up and say so. */
export const PUBLISH_ATTEMPTS = 5;
/**
 * One try that has not finished after this long counts as stalled.
 * livekit-client bounds its own waits by its peer connection timeout
 * (15 s); this is past that, so a try it would still finish is not cut.
 */
export const PUBLISH_TIMEOUT_MS = 20_000;
export const PUBLISH_RETRY_BASE_MS = 1000;
const PUBLISH_BACKOFF: BackoffPolicy = {
  baseDelayMs: PUBLISH_RETRY_BASE_MS,
  maxDelayMs: 8000,
  jitter: "none",
};

/** Where our tracks are: not asked yet, being published, all published, retrying after a failure, given up. */
export type PublishState = "idle" | "publishing" | "published" | "retrying" | "failed";

/** A try that did not finish within PUBLISH_TIMEOUT_MS. */
export class PublishStalledError extends Error {
  constructor(readonly track: MediaTrack) {
    super(`Publishing the ${track.kind} track did not finish`);
    this.name = "PublishStalledError";
  }
}

export interface PublishRetryOptions {
  /** Waits between tries (injectable for tests). */
  sleep: (ms: number) => Promise<void>;
  /** Bound of one try, in ms (PUBLISH_TIMEOUT_MS unless a test says otherwise). */
  timeoutMs?: number;
  attempts?: number;
  /** False once the connection left or joined again: the retries stop. */
  current: () => boolean;
  /** A try failed and another follows. */
  onRetry: (error: unknown) => void;
}

/** Whether `track` already has a publication (a stalled try that finished late). */
function isPublished(local: LkLocalParticipant, track: MediaTrack): boolean {
  for (const pub of local.trackPublications.values()) if (pub.track?.mediaStreamTrack === track) return true;
  return false;
}

async function tryOnce(
  local: LkLocalParticipant,
  track: MediaTrack,
  publishOptions: Record<string, unknown>,
  timeoutMs: number,
): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stalled = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PublishStalledError(track)), timeoutMs);
  });
  try {
    await Promise.race([local.publishTrack(track, publishOptions), stalled]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Publishes `track`, retrying; resolves `published: true` once it is
 * published, `published: false` (with the last error) when every try failed
 * or the connection moved on. Never rejects.
 */
export async function publishWithRetry(
  local: LkLocalParticipant,
  track: MediaTrack,
  publishOptions: Record<string, unknown>,
  options: PublishRetryOptions,
): Promise<{ published: boolean; error?: unknown }> {
  const attempts = options.attempts ?? PUBLISH_ATTEMPTS;
  let last: unknown;
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (!options.current()) return { published: false, error: last };
    if (attempt > 0) {
      options.onRetry(last);
      await options.sleep(backoffDelay(attempt, PUBLISH_BACKOFF));
      if (!options.current()) return { published: false, error: last };
    }
    // Already there (a stalled try that finished while we waited): never published twice.
    if (isPublished(local, track)) return { published: true };
    // A half-done try is taken down (if anything of it is there) before the next one.
    if (attempt > 0) await local.unpublishTrack(track, false).catch(() => undefined);
    try {
      await tryOnce(local, track, publishOptions, options.timeoutMs ?? PUBLISH_TIMEOUT_MS);
      return { published: true };
    } catch (error) {
      last = error;
    }
  }
  return { published: false, error: last };
}
