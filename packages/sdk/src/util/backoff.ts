/**
 * Exponential backoff, in one place. Each use keeps its own constants (a
 * `BackoffPolicy`): plain requests, the send queue, account data writes,
 * sync after a refusal, call candidates and call key sends differ in base,
 * cap and jitter. Pure: the random source is passed in.
 */

/** How one use backs off. */
export interface BackoffPolicy {
  /** The wait after the first failure; it doubles after each later one. */
  readonly baseDelayMs: number;
  /** The longest wait; Infinity for none. */
  readonly maxDelayMs: number;
  /**
   * "equal": a wait between half the computed delay and all of it, so clients
   * that failed together do not retry together; "none": exactly the delay.
   */
  readonly jitter: "equal" | "none";
}

/**
 * The wait after failure number `attempt` (counting from 1): baseDelayMs
 * doubled attempt - 1 times, capped at maxDelayMs, then jittered.
 */
export function backoffDelay(
  attempt: number,
  policy: BackoffPolicy,
  random: () => number = Math.random,
): number {
  const exponent = Math.max(0, attempt - 1);
  const delay = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** exponent);
  if (policy.jitter === "none") return delay;
  return Math.round(delay / 2 + (random() * delay) / 2);
}
