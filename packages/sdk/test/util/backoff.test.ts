/**
 * util/backoff: the one exponential backoff, with each use's constants.
 */
import { describe, expect, it } from "vitest";
import { backoffDelay } from "../../src/util/backoff";
import { DEFAULT_RETRY_POLICY, retryDelay } from "../../src/http/retry";
import { ConnectionError } from "../../src/http/errors";
import { DEFAULT_SEND_RETRY_POLICY, sendRetryDelay } from "../../src/send/failure";

describe("backoffDelay", () => {
  it("doubles from the base and stops at the cap", () => {
    const policy = { baseDelayMs: 500, maxDelayMs: 3_000, jitter: "none" } as const;
    expect([1, 2, 3, 4, 5].map((a) => backoffDelay(a, policy))).toEqual([500, 1_000, 2_000, 3_000, 3_000]);
  });

  it("equal jitter waits between half the delay and all of it", () => {
    const policy = { baseDelayMs: 1_000, maxDelayMs: 30_000, jitter: "equal" } as const;
    expect(backoffDelay(3, policy, () => 0)).toBe(2_000);
    expect(backoffDelay(3, policy, () => 0.5)).toBe(3_000);
    expect(backoffDelay(3, policy, () => 0.999)).toBe(3_998);
  });

  it("keeps each use's constants: requests 500 ms to 10 s, sends 1 s to 30 s", () => {
    const network = new ConnectionError("network", "offline");
    // Random 1: the whole delay.
    expect(retryDelay(network, 1, DEFAULT_RETRY_POLICY, () => 1)).toBe(500);
    expect(retryDelay(network, 3, DEFAULT_RETRY_POLICY, () => 1)).toBe(2_000);
    expect(retryDelay(network, 4, DEFAULT_RETRY_POLICY, () => 1)).toBeNull();
    expect(sendRetryDelay(network, 1, DEFAULT_SEND_RETRY_POLICY, () => 1)).toBe(1_000);
    expect(sendRetryDelay(network, 4, DEFAULT_SEND_RETRY_POLICY, () => 1)).toBe(8_000);
    expect(sendRetryDelay(network, 5, DEFAULT_SEND_RETRY_POLICY, () => 1)).toBeNull();
  });

  it("a send time-out is retried while a plain request's is not", () => {
    const timeout = new ConnectionError("timeout", "slow");
    expect(retryDelay(timeout, 1, DEFAULT_RETRY_POLICY, () => 0)).toBeNull();
    expect(sendRetryDelay(timeout, 1, DEFAULT_SEND_RETRY_POLICY, () => 0)).toBe(500);
  });
});
