/**
 * Honest sync errors on fake time: a refusal (4xx) is told apart from a
 * connection failure, retried a bounded number of times without keep-alive
 * probes, then stops the loop in state error with the server's errcode and
 * message; rate limits wait retry_after_ms; network failures keep today's
 * reconnecting/error/catchup path. classifySyncFailure sorts every kind.
 */
import { describe, expect, it, vi } from "vitest";
import type { SyncResponse } from "../../src/api/types/sync";
import { ConnectionError, MatrixError, ResponseFormatError } from "../../src/http/errors";
import { classifySyncFailure } from "../../src/sync/errors";
import type { SyncFailure } from "../../src/sync/errors";
import { SyncLoop } from "../../src/sync/SyncLoop";
import type { SyncRequest, SyncState, SyncTransport } from "../../src/sync/SyncLoop";
import { FakeScheduler, flush } from "../support/fake-scheduler";

class ScriptedTransport implements SyncTransport {
  readonly requests: SyncRequest[] = [];
  probes = 0;
  syncAnswers: Array<SyncResponse | Error> = [];
  private n = 0;

  sync(request: SyncRequest): Promise<SyncResponse> {
    this.requests.push(request);
    const answer = this.syncAnswers.shift();
    if (answer === undefined) {
      return new Promise((_, reject) =>
        request.signal.addEventListener("abort", () => reject(new Error("aborted"))),
      );
    }
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
  }

  probe(): Promise<void> {
    this.probes += 1;
    return Promise.resolve();
  }

  ok(): SyncResponse {
    return { next_batch: `s${++this.n}` };
  }
}

const refusal = (): MatrixError =>
  new MatrixError({
    errcode: "M_UNKNOWN",
    error: "Additional properties are not allowed ('unread_thread_notifications' was unexpected)",
    httpStatus: 400,
  });

function setup() {
  const transport = new ScriptedTransport();
  const scheduler = new FakeScheduler([0]);
  const logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
  const states: Array<SyncState | null> = [];
  const failures: Array<SyncFailure | null> = [];
  const onRefused = vi.fn();
  const loop = new SyncLoop({ transport, handler: () => Promise.resolve(), scheduler, logger, onRefused });
  loop.state.subscribe((s) => states.push(s));
  loop.failure.subscribe((f) => failures.push(f));
  return { transport, scheduler, logger, states, failures, loop, onRefused };
}

describe("classifySyncFailure", () => {
  it("sorts network failures, 5xx, rate limits and refusals", () => {
    expect(classifySyncFailure(new ConnectionError("network", "fetch failed")).kind).toBe("network");
    expect(classifySyncFailure(new TypeError("fetch failed")).kind).toBe("network");
    expect(
      classifySyncFailure(new MatrixError({ errcode: "M_UNKNOWN", error: "boom", httpStatus: 502 })),
    ).toMatchObject({
      kind: "server",
      httpStatus: 502,
      errcode: "M_UNKNOWN",
      message: "boom",
      permanent: false,
    });
    expect(classifySyncFailure(new ResponseFormatError("Sync response has no next_batch", 200)).kind).toBe(
      "protocol",
    );
    // A non-HTTP error after the answer arrived came from handling it, not the network.
    expect(classifySyncFailure(new Error("boom"), true).kind).toBe("processing");
    expect(
      classifySyncFailure(
        new MatrixError({
          errcode: "M_LIMIT_EXCEEDED",
          error: "slow down",
          httpStatus: 429,
          retryAfterMs: 1500,
        }),
      ),
    ).toMatchObject({ kind: "rate_limited", retryAfterMs: 1500 });
    expect(classifySyncFailure(refusal())).toMatchObject({
      kind: "refused",
      httpStatus: 400,
      errcode: "M_UNKNOWN",
      message: "Additional properties are not allowed ('unread_thread_notifications' was unexpected)",
      permanent: false,
    });
    expect(
      classifySyncFailure(new MatrixError({ errcode: "M_FORBIDDEN", error: "no", httpStatus: 403 })).kind,
    ).toBe("refused");
  });
});

describe("SyncLoop failures", () => {
  it("retries a refusal with backoff and no keep-alive, then stops in error with what the server said", async () => {
    const { transport, scheduler, states, failures, loop, onRefused, logger } = setup();
    transport.syncAnswers = [refusal(), refusal(), refusal(), transport.ok()];
    loop.start();
    await flush();
    expect(states).toEqual(["reconnecting"]);
    expect(failures.at(-1)).toMatchObject({ kind: "refused", errcode: "M_UNKNOWN", permanent: false });
    // 2 s after the first refusal, then 4 s: the backoff doubles.
    expect(scheduler.pending()).toEqual([2_000]);
    await scheduler.advance(2_000);
    expect(transport.requests).toHaveLength(2);
    expect(scheduler.pending()).toEqual([4_000]);
    await scheduler.advance(4_000);
    // The third refusal reaches the threshold: state error, the loop has given up.
    expect(transport.requests).toHaveLength(3);
    expect(states).toEqual(["reconnecting", "error"]);
    expect(loop.isRunning).toBe(false);
    expect(transport.probes).toBe(0);
    expect(failures.at(-1)).toMatchObject({
      kind: "refused",
      httpStatus: 400,
      errcode: "M_UNKNOWN",
      message: "Additional properties are not allowed ('unread_thread_notifications' was unexpected)",
      permanent: true,
    });
    expect(onRefused).toHaveBeenCalledTimes(1);
    expect(logger.error).toHaveBeenCalledWith(expect.stringContaining("refused the request"));
    // Nothing is scheduled: it does not retry forever.
    expect(scheduler.pending()).toEqual([]);
    await scheduler.advance(600_000);
    expect(transport.requests).toHaveLength(3);
    // "Try again" starts it once more; a success clears the failure.
    loop.start();
    await flush();
    expect(states.at(-1)).toBe("prepared");
    expect(failures.at(-1)).toBeNull();
    await loop.stop();
    expect(states.at(-1)).toBe("stopped");
  });

  it("waits retry_after_ms on a rate limit, without a keep-alive", async () => {
    const { transport, scheduler, states, loop } = setup();
    transport.syncAnswers = [
      transport.ok(),
      new MatrixError({ errcode: "M_LIMIT_EXCEEDED", error: "slow", httpStatus: 429, retryAfterMs: 1234 }),
      transport.ok(),
    ];
    loop.start();
    await flush();
    expect(scheduler.pending()).toEqual([1234]);
    await scheduler.advance(1234);
    expect(transport.probes).toBe(0);
    expect(states).toEqual(["prepared", "reconnecting", "syncing"]);
    await loop.stop();
  });

  it("keeps network failures on the keep-alive path, published as network", async () => {
    const { transport, scheduler, failures, loop } = setup();
    transport.syncAnswers = [transport.ok(), new ConnectionError("network", "fetch failed"), transport.ok()];
    loop.start();
    await flush();
    expect(failures.at(-1)).toMatchObject({ kind: "network", permanent: false });
    await scheduler.advance(2_000);
    expect(transport.probes).toBe(1);
    await flush();
    expect(failures.at(-1)).toBeNull();
    expect(loop.isRunning).toBe(true);
    await loop.stop();
  });
});
