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
