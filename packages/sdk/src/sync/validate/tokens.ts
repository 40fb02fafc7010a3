/**
 * Tokens the client sends back to the server as it got them: sync's
 * next_batch (the next `since`), a timeline's prev_batch and pagination's
 * `end` (the next `from`). A token is usable only if it survives a round
 * trip through a query string unchanged. JSON can carry lone UTF-16
 * surrogates ("\ud800"), and URLSearchParams (like every UTF-8 encoder)
 * replaces them with U+FFFD, so such a token would come back to the server
 * as one it never issued: refused here instead.
 */

/** A surrogate half without its partner. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Whether `value` is a non-empty string of at most `max` UTF-16 units that
 * a query string carries unchanged (well-formed UTF-16: no lone surrogate).
 */
export function isEchoableToken(value: unknown, max: number): value is string {
  return typeof value === "string" && value.length > 0 && value.length <= max && !LONE_SURROGATE.test(value);
}
