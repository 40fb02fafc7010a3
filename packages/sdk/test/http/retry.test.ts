/**
 * Retry decisions and delays as pure functions, and the default sleep under
 * fake time: bounded backoff with jitter, server-requested waits, give-up
 * rules, Retry-After parsing, abortable waits.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  ConnectionError,
  DEFAULT_RETRY_POLICY,
  MatrixError,
  ResponseFormatError,
  defaultSleep,
  isAbortError,
  isRetryable,
  isUnrecognisedError,
  parseRetryAfter,
  retryDelay,
  toMatrixError,
} from "../../src/http";

const err = (httpStatus: number, errcode = "M_UNKNOWN", retryAfterMs?: number): MatrixError =>
  new MatrixError({
    errcode,
    error: "x",
    httpStatus,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });

describe("retry decisions", () => {
  it("retries network errors, 5xx, 429 and M_LIMIT_EXCEEDED only", () => {
    expect(isRetryable(new ConnectionError("network", "down"))).toBe(true);
    expect(isRetryable(new ConnectionError("timeout", "slow"))).toBe(false);
    expect(isRetryable(new ConnectionError("aborted", "gone"))).toBe(false);
    expect(isRetryable(err(502))).toBe(true);
    expect(isRetryable(err(429))).toBe(true);
    expect(isRetryable(err(400, "M_LIMIT_EXCEEDED"))).toBe(true);
    expect(isRetryable(err(403, "M_FORBIDDEN"))).toBe(false);
    expect(isRetryable(new ResponseFormatError("bad", 200))).toBe(false);
    expect(isRetryable(new Error("other"))).toBe(false);
  });

  it("backs off exponentially within bounds, jitter from the injected random", () => {
    const policy = { maxAttempts: 10, baseDelayMs: 1000, maxDelayMs: 5000, maxRetryAfterMs: 60_000 };
    const net = new ConnectionError("network", "down");
    const low = [1, 2, 3, 4, 5].map((n) => retryDelay(net, n, policy, () => 0));
    const high = [1, 2, 3, 4, 5].map((n) => retryDelay(net, n, policy, () => 0.999999));
    expect(low).toEqual([500, 1000, 2000, 2500, 2500]);
    expect(high).toEqual([1000, 2000, 4000, 5000, 5000]);
  });

  it("uses the server's wait, gives up past maxRetryAfterMs or maxAttempts", () => {
    expect(retryDelay(err(429, "M_LIMIT_EXCEEDED", 1500), 1, DEFAULT_RETRY_POLICY, Math.random)).toBe(1500);
    expect(
      retryDelay(err(429, "M_LIMIT_EXCEEDED", 10 ** 9), 1, DEFAULT_RETRY_POLICY, Math.random),
    ).toBeNull();
    expect(
      retryDelay(err(503), DEFAULT_RETRY_POLICY.maxAttempts, DEFAULT_RETRY_POLICY, Math.random),
    ).toBeNull();
  });

  it("parses Retry-After seconds and HTTP dates, ignoring garbage", () => {
    const now = Date.parse("2030-01-01T00:00:00Z");
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter("Tue, 01 Jan 2030 00:00:05 GMT", now)).toBe(5000);
    expect(parseRetryAfter("Mon, 31 Dec 2029 00:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it("classifies unrecognised-endpoint answers", () => {
    expect(isUnrecognisedError(err(404, "M_UNRECOGNIZED"))).toBe(true);
    expect(isUnrecognisedError(err(405))).toBe(true);
    expect(isUnrecognisedError(err(400, "M_UNRECOGNIZED"))).toBe(true);
    expect(isUnrecognisedError(err(400, "M_BAD_JSON"))).toBe(false);
    expect(isUnrecognisedError(new ConnectionError("network", "x"))).toBe(false);
  });

  it("builds MatrixErrors from any body, preferring retry_after_ms over Retry-After", () => {
    const both = toMatrixError(
      429,
      '{"errcode":"M_LIMIT_EXCEEDED","error":"e","retry_after_ms":250}',
      "9",
      0,
    );
    expect(both.retryAfterMs).toBe(250);
    const header = toMatrixError(
      429,
      '{"errcode":"M_LIMIT_EXCEEDED","error":"e","retry_after_ms":"x"}',
      "9",
      0,
    );
    expect(header.retryAfterMs).toBe(9000);
    expect(toMatrixError(500, "[1,2]", null, 0).errcode).toBe("M_UNKNOWN");
    expect(toMatrixError(500, "null", null, 0).message).toBe("M_UNKNOWN: Non-JSON error response (HTTP 500)");
  });
});

describe("default sleep under fake time", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("resolves after the delay", async () => {
    vi.useFakeTimers();
    let done = false;
    const pending = defaultSleep(5000).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(4999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await pending;
    expect(done).toBe(true);
  });

  it("rejects with an aborted ConnectionError when the signal aborts", async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const pending = defaultSleep(60_000, controller.signal).catch((e: unknown) => e);
    controller.abort(new Error("stop"));
    const result = await pending;
    expect(isAbortError(result)).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });
});
