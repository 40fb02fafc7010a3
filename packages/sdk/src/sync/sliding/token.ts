/**
 * Sync tokens tagged with the protocol they belong to. The store keeps one
 * token (StoredSync.nextBatch) and the loop one `since`; a v2 `next_batch`
 * must never be sent as a sliding `pos` or the other way round, so the
 * sliding transport hands the loop `msc4186:<pos>` (plus the to-device
 * extension's own token) and every transport reads a token only when it is
 * its own. A token without the tag is a v2 token.
 */

import { DEFAULT_VALIDATION_LIMITS } from "../validate/limits";
import { SyncProtocolError } from "../validate/parseSync";
import { isEchoableToken } from "../validate/tokens";

/** The prefix that marks a sliding sync token. */
export const SLIDING_TOKEN_TAG = "msc4186:";

/** A sliding sync position: the connection's `pos` and the to_device extension's token. */
export interface SlidingPosition {
  pos: string;
  toDeviceSince?: string;
}

/**
 * Percent-encodes a part, "~" included (encodeURIComponent leaves it, and it
 * separates the parts). A part that would not survive a round trip (a lone
 * surrogate: encodeURIComponent throws a URIError on it) is the server's
 * protocol error, as an unusable v2 next_batch is: the loop stops on it.
 */
function encodePart(part: string): string {
  if (part !== "" && !isEchoableToken(part, DEFAULT_VALIDATION_LIMITS.maxStringLength))
    throw new SyncProtocolError();
  return encodeURIComponent(part).replaceAll("~", "%7E");
}

/** The loop's token for a sliding position. */
export function encodeSlidingToken(position: SlidingPosition): string {
  const pos = encodePart(position.pos);
  const toDevice = position.toDeviceSince !== undefined ? `~${encodePart(position.toDeviceSince)}` : "";
  return `${SLIDING_TOKEN_TAG}${pos}${toDevice}`;
}

/** Whether a loop token is a sliding one. */
export function isSlidingToken(token: string | undefined): token is string {
  return token !== undefined && token.startsWith(SLIDING_TOKEN_TAG);
}

/** The sliding position of a token; undefined for a v2 token, an absent one or a malformed one. */
export function decodeSlidingToken(token: string | undefined): SlidingPosition | undefined {
  if (!isSlidingToken(token)) return undefined;
  const [pos, toDevice, ...rest] = token.slice(SLIDING_TOKEN_TAG.length).split("~");
  if (pos === undefined || pos === "" || rest.length > 0) return undefined;
  try {
    const decoded = decodeURIComponent(pos);
    return toDevice !== undefined
      ? { pos: decoded, toDeviceSince: decodeURIComponent(toDevice) }
      : { pos: decoded };
  } catch {
    return undefined;
  }
}

/** The v2 `since` of a loop token: the token itself unless it is a sliding one. */
export function v2Since(token: string | undefined): string | undefined {
  return isSlidingToken(token) ? undefined : token;
}
