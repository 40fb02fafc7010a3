/**
 * Lifecycle messages and constants of the host (SPEC §4, §8, §9).
 */
import { boundedEcho } from "../transport/PostMessageTransport";

/** Negotiation states: idle until the widget loads, then preparing, then ready or error:preparing. */
export type NegotiationState = "idle" | "preparing" | "ready" | "error:preparing";

/** How long the host waits for content_loaded when waitForIframeLoad is false (SPEC §9). */
export const CONTENT_LOADED_WAIT_MS = 10_000;

/** Lifecycle error texts. */
export const LIFECYCLE_ERRORS = {
  contentLoadedTwice:
    "Improper sequence: ContentLoaded Action can only be sent once after the widget loaded and should only be used if waitForIframeLoad is false (default=true)",
  notExpectingContentLoaded:
    "Improper sequence: not expecting ContentLoaded event if waitForIframeLoad is true",
  negotiationCompleted: "Capability negotiation already completed",
  contentLoadedMissing:
    "Widget specified waitForIframeLoad=false but timed out waiting for contentLoaded event!",
  invalidCapabilities: "Widget replied to capabilities with an invalid list",
} as const;

/** Reply to an action nobody handles (the name cut to 200 characters, so the reply stays small). */
export function unknownAction(action: string): string {
  return `Unknown or unsupported action: ${boundedEcho(action)}`;
}

/**
 * How long a handled requestId is remembered after its reply: a replay
 * within this window is dropped, as is one while the first is in flight.
 */
export const REPLAY_WINDOW_MS = 30_000;

/**
 * What makes a repeated requestId a replay rather than a new request: the
 * same action with the same data. matrix-widget-api names its requests
 * `widgetapi-<ms>` and reuses a name once its request is answered, so two
 * requests within one millisecond share an id; only a true repeat is dropped.
 * A short hash (FNV-1a over the JSON) keeps memory small for large payloads.
 */
export function requestFingerprint(action: string, data: unknown): string {
  const text = `${action}\u0000${JSON.stringify(data) ?? ""}`;
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `${text.length}:${hash.toString(16)}`;
}
