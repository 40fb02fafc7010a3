/**
 * Every transition of the sync state machine, on fake time, with a scripted
 * transport.
 */
import { describe, expect, it, vi } from "vitest";
import type { SyncResponse } from "../../src/api/types/sync";
import { MatrixError } from "../../src/http/errors";
import { SyncLoop } from "../../src/sync/SyncLoop";
import type { SyncRequest, SyncState, SyncTransport } from "../../src/sync/SyncLoop";
import { FakeScheduler, flush } from "../support/fake-scheduler";

type Outcome = SyncResponse | Error;

/** A transport whose sync answers come from a queue, and records requests. */
class ScriptedTransport implements SyncTransport {
  readonly requests: SyncRequest[] = [];
  readonly probes: number[] = [];
  syncAnswers: Outcome[] = [];
  probeAnswers: Array<Error | undefined> = [];
  private n = 0;

  sync(request: SyncRequest): Promise<SyncResponse> {
    this.requests.push(request);
    const answer = this.syncAnswers.shift();
    if (answer === undefined) {
      // Long-poll that never answers until aborted.
      return new Promise((_, reject) =>
        request.signal.addEventListener("abort", () => reject(new Error("aborted"))),
      );
    }
    if (answer instanceof Error) return Promise.reject(answer);
    return Promise.resolve(answer);
  }

  probe(timeoutMs: number): Promise<void> {
    this.probes.push(timeoutMs);
    const answer = this.probeAnswers.shift();
    return answer ? Promise.reject(answer) : Promise.resolve();
  }

  ok(): SyncResponse {
    return { next_batch: `s${++this.n}` };
  }
}

function matrixError(status: number, errcode: string, extra: Record<string, unknown> = {}): MatrixError {
  return new MatrixError({
    errcode,
    error: "x",
    httpStatus: status,
    data: { errcode, error: "x", ...extra },
  });
}

function setup(options: { handler?: (r: SyncResponse) => Promise<void>; since?: string } = {}) {
  const transport = new ScriptedTransport();
  const scheduler = new FakeScheduler([0]);
  const logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
  const states: Array<SyncState | null> = [];
  const onUnknownToken = vi.fn();
  const loop = new SyncLoop({
    transport,
    handler: options.handler ?? (() => Promise.resolve()),
    scheduler,
    logger,
    pollTimeoutMs: 30_000,
    requestMarginMs: 80_000,
    onUnknownToken,
    ...(options.since ? { since: options.since } : {}),
  });
  loop.state.subscribe((s) => states.push(s));
  return { transport, scheduler, logger, states, loop, onUnknownToken };
}

describe("SyncLoop", () => {
  it("goes prepared then syncing, long-polls after the first sync and advances the token", async () => {
    const { transport, loop, states, scheduler } = setup({ since: "stored" });
    transport.syncAnswers = [transport.ok(), transport.ok()];
    loop.start();
    await flush();
    expect(states).toEqual(["prepared", "syncing"]);
    expect(transport.requests.map((r) => [r.since, r.timeout, r.requestTimeoutMs])).toEqual([
      ["stored", 0, 80_000],
      ["s1", 30_000, 110_000],
      ["s2", 30_000, 110_000],
    ]);
    expect(loop.lastSyncAt.getSnapshot()).toBe(scheduler.now());
    await loop.stop();
    expect(loop.state.getSnapshot()).toBe("stopped");
  });

  it("stays reconnecting below 3 failures, probes after 2-7 s, and syncs with timeout 0", async () => {
    const { transport, loop, states, scheduler } = setup();
    transport.syncAnswers = [transport.ok(), new Error("network"), transport.ok()];
    loop.start();
    await flush();
    expect(states).toEqual(["prepared", "reconnecting"]);
    expect(scheduler.pending()).toEqual([2_000]);
    await scheduler.advance(1_999);
    expect(transport.probes).toEqual([]);
    await scheduler.advance(1);
    expect(transport.probes).toEqual([15_000]);
    expect(transport.requests[2]?.timeout).toBe(0);
    expect(states).toEqual(["prepared", "reconnecting", "syncing"]);
    await loop.stop();
  });

  it("uses the random keep-alive delay between 2 and 7 s", async () => {
    const transport = new ScriptedTransport();
    const scheduler = new FakeScheduler([0.999]);
    const loop = new SyncLoop({
      transport,
      handler: () => Promise.resolve(),
      scheduler,
      logger: { info() {}, warn() {}, error() {} },
    });
    transport.syncAnswers = [new Error("down")];
    loop.start();
    await flush();
    // 2 000 + floor(0.999 * 5 000): the top of the 2-7 s range.
    expect(scheduler.pending()[0]).toBe(6_995);
    await loop.stop();
  });

  it("gives error at the 3rd consecutive failure and catchup when the connection returns", async () => {
    const { transport, loop, states, scheduler } = setup();
    transport.syncAnswers = [
      transport.ok(),
      new Error("1"),
      new Error("2"),
      new Error("3"),
      transport.ok(),
      transport.ok(),
    ];
    loop.start();
    await flush();
    await scheduler.advance(2_000);
    await scheduler.advance(2_000);
    expect(states).toEqual(["prepared", "reconnecting", "error"]);
    await scheduler.advance(2_000);
    expect(states).toEqual(["prepared", "reconnecting", "error", "catchup", "syncing"]);
    // first, failing long-poll, two retries and the catch-up at timeout 0, then long-polls again.
    expect(transport.requests.map((r) => r.timeout)).toEqual([0, 30_000, 0, 0, 0, 30_000, 30_000]);
    await loop.stop();
  });

  it("treats a keep-alive answer of 400 or 404 as reachable after 2 s", async () => {
    for (const status of [400, 404]) {
      const { transport, loop, scheduler } = setup();
      transport.syncAnswers = [transport.ok(), new Error("x"), transport.ok()];
      transport.probeAnswers = [matrixError(status, "M_UNRECOGNIZED")];
      loop.start();
      await flush();
      await scheduler.advance(2_000);
      expect(transport.probes).toHaveLength(1);
      expect(transport.requests).toHaveLength(2);
      await scheduler.advance(1_999);
      expect(transport.requests).toHaveLength(2);
      await scheduler.advance(1);
      // The retry (timeout 0) succeeds at once and the next long-poll starts.
      expect(transport.requests.map((r) => r.timeout)).toEqual([0, 30_000, 0, 30_000]);
      await loop.stop();
    }
  });

  it("sets error when the keep-alive fails otherwise and retries after 5-10 s", async () => {
    const { transport, loop, states, scheduler } = setup();
    transport.syncAnswers = [transport.ok(), new Error("x"), transport.ok()];
    transport.probeAnswers = [new Error("refused")];
    loop.start();
    await flush();
    await scheduler.advance(2_000);
    expect(states.at(-1)).toBe("error");
    expect(scheduler.pending()).toEqual([5_000]);
    await scheduler.advance(5_000);
    expect(transport.probes).toHaveLength(2);
    expect(states.slice(-2)).toEqual(["catchup", "syncing"]);
    await loop.stop();
  });

  it("stops on M_UNKNOWN_TOKEN with the spec's log line, state error, and soft_logout passed on", async () => {
    const { transport, loop, states, logger, onUnknownToken } = setup();
    transport.syncAnswers = [transport.ok(), matrixError(401, "M_UNKNOWN_TOKEN", { soft_logout: true })];
    loop.start();
    await flush();
    expect(logger.warn).toHaveBeenCalledWith("Token no longer valid - assuming logout");
    expect(states.at(-1)).toBe("error");
    expect(loop.isRunning).toBe(false);
    expect(onUnknownToken).toHaveBeenCalledWith(true, expect.any(MatrixError));
    expect(transport.requests).toHaveLength(2);
  });

  it("fetches a batch again when processing it fails, so nothing is lost", async () => {
    let calls = 0;
    const { transport, loop, scheduler } = setup({
      handler: () => (++calls === 2 ? Promise.reject(new Error("disk full")) : Promise.resolve()),
    });
    transport.syncAnswers = [transport.ok(), transport.ok(), transport.ok()];
    loop.start();
    await flush();
    await scheduler.advance(2_000);
    expect(transport.requests.map((r) => r.since)).toEqual([undefined, "s1", "s1", "s3"]);
    await loop.stop();
  });

  it("aborts the long-poll on stop and when the browser goes offline; online wakes the keep-alive", async () => {
    const { transport, loop, states, scheduler } = setup();
    transport.syncAnswers = [transport.ok()];
    loop.start();
    await flush();
    expect(transport.requests).toHaveLength(2);
    transport.syncAnswers = [transport.ok()];
    loop.setOnline(false);
    await flush();
    expect(states.at(-1)).toBe("reconnecting");
    loop.setOnline(true);
    await flush();
    expect(transport.probes).toHaveLength(1);
    expect(states.at(-1)).toBe("syncing");
    const inFlight = transport.requests.at(-1)!;
    await loop.stop();
    expect(inFlight.signal.aborted).toBe(true);
    expect(states.at(-1)).toBe("stopped");
    void scheduler;
  });

  it("stops in error on a next_batch that would not survive a round trip, without handling the batch", async () => {
    const handled: SyncResponse[] = [];
    const { transport, loop, states } = setup({
      handler: (r) => {
        handled.push(r);
        return Promise.resolve();
      },
    });
    // A lone surrogate: a query string would send the server another token.
    transport.syncAnswers = [transport.ok(), { next_batch: "s\ud800" }];
    loop.start();
    await flush();
    expect(handled.map((r) => r.next_batch)).toEqual(["s1"]);
    expect(states.at(-1)).toBe("error");
    expect(loop.isRunning).toBe(false);
    expect(loop.failure.getSnapshot()).toMatchObject({ kind: "protocol", permanent: true });
    expect(loop.nextSince).toBe("s1");
    expect(transport.requests).toHaveLength(2);
  });

  it("refuses a stored since that would not survive a round trip, sending nothing", async () => {
    const { transport, loop, states } = setup({ since: "old\udc00" });
    transport.syncAnswers = [transport.ok()];
    loop.start();
    await flush();
    expect(transport.requests).toHaveLength(0);
    expect(states.at(-1)).toBe("error");
    expect(loop.failure.getSnapshot()).toMatchObject({ kind: "protocol", permanent: true });
  });

  it("counts failures in a row only: a success in between starts the count again", async () => {
    const { transport, loop, states, scheduler } = setup();
    transport.syncAnswers = [
      transport.ok(),
      new Error("down"),
      new Error("down"),
      transport.ok(),
      new Error("down"),
      new Error("down"),
    ];
    loop.start();
    await flush();
    // Each failure waits the 2 s keep-alive (random 0), then probes and syncs again.
    for (let i = 0; i < 4; i++) await scheduler.advance(2_000);
    expect(transport.syncAnswers).toEqual([]);
    // Four failures in all, never three in a row: reconnecting, never error.
    expect(states).toEqual(["prepared", "reconnecting", "syncing", "reconnecting"]);
    await loop.stop();
  });
});
