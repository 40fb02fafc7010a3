/**
 * The sync state machine driven over HTTP by the test homeserver's fault
 * injection: 5xx, 429, dropped connections, garbage bodies, the server
 * going offline, keep-alive answers (400/404 reachable, other errors), the
 * unknown token, and the browser's online/visibility events. Real sockets,
 * keep-alive delays shortened by the scheduler.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { MemoryStore } from "../../../src/store/MemoryStore";
import type { PlatformAdapter, PlatformHandlers } from "../../../src/sync/platform";
import type { Scheduler } from "../../../src/util/scheduler";
import { SyncService } from "../../../src/sync/SyncService";
import type { SyncState } from "../../../src/sync/SyncLoop";
import {
  clientFor,
  fastScheduler,
  quietLogger,
  recording,
  RecordingProcessor,
  register,
  startServer,
  waitFor,
} from "./helpers";
import type { TestServerHandle, TestUser } from "./helpers";

let server: TestServerHandle;
let alice: TestUser;
let service: SyncService | undefined;

beforeAll(async () => {
  server = await startServer(41);
  alice = await register(server, "alice");
});
afterEach(async () => {
  await service?.stop();
  service = undefined;
  // A long-poll the stopped client had already written can reach the server a moment later; let it
  // arrive now, or it would take the next test's first fault.
  await new Promise((resolve) => setTimeout(resolve, 50));
  server.faults.reset();
});
afterAll(async () => {
  await server.stop();
});

function fakePlatform(): PlatformAdapter & { handlers?: PlatformHandlers } {
  const platform: PlatformAdapter & { handlers?: PlatformHandlers } = {
    subscribe(handlers) {
      platform.handlers = handlers;
      return () => {
        platform.handlers = undefined;
      };
    },
  };
  return platform;
}

function setup(
  options: { scheduler?: Scheduler; platform?: PlatformAdapter; onUnknownToken?: () => void } = {},
) {
  const http = recording(clientFor(server, alice));
  const logger = quietLogger();
  const states: Array<SyncState | null> = [];
  const processors: RecordingProcessor[] = [];
  const svc = new SyncService({
    http,
    store: new MemoryStore(),
    userId: alice.userId,
    processor: (store) => {
      const processor = new RecordingProcessor(store);
      processors.push(processor);
      return processor;
    },
    pollTimeoutMs: 150,
    requestMarginMs: 3_000,
    scheduler: options.scheduler ?? fastScheduler(),
    logger,
    ...(options.platform ? { platform: options.platform } : {}),
    ...(options.onUnknownToken ? { onUnknownToken: options.onUnknownToken } : {}),
  });
  svc.state.subscribe((s) => states.push(s));
  service = svc;
  /** The timeout query of every /sync sent so far. */
  const syncTimeouts = (): unknown[] =>
    http.requests.filter((r) => r.path === "/sync").map((r) => r.query?.["timeout"]);
  return { svc, http, logger, states, syncTimeouts, processor: processors[0] as RecordingProcessor };
}

/** The distinct states in order (repeats collapsed). */
function path(states: Array<SyncState | null>): Array<SyncState | null> {
  return states.filter((s, i) => s !== states[i - 1]);
}

describe("sync state machine over HTTP", () => {
  it("goes prepared on the first sync, then syncing, with timeout 0 first and the poll timeout after", async () => {
    const { svc, states, syncTimeouts } = setup();
    await svc.start();
    await waitFor(() => states.includes("syncing"), 5_000, "syncing");
    expect(path(states).slice(0, 2)).toEqual(["prepared", "syncing"]);
    expect(syncTimeouts().slice(0, 2)).toEqual([0, 150]);
    expect(svc.lastSyncAt.getSnapshot()).not.toBeNull();
  });

  it("stays reconnecting on one 5xx and returns to syncing, without going to error", async () => {
    const { svc, states, syncTimeouts } = setup();
    await svc.start();
    await waitFor(() => states.includes("syncing"));
    server.faults.add({ path: "/sync", status: 502, times: 1 });
    await waitFor(() => states.includes("reconnecting"));
    const at = states.lastIndexOf("reconnecting");
    await waitFor(() => states.slice(at).includes("syncing"));
    expect(states).not.toContain("error");
    // The request after the failure is a catch-up with timeout 0; the HTTP client did not retry it.
    const timeouts = syncTimeouts();
    expect(timeouts).toContain(0);
    expect(server.faults.hits.filter((h) => h.path.endsWith("/sync"))).toHaveLength(1);
  });

  it("reaches error on the 3rd consecutive failure, then catchup, then syncing", async () => {
    const { svc, states } = setup();
    await svc.start();
    await waitFor(() => states.includes("syncing"));
    const before = states.length;
    server.faults.add({ path: "/sync", status: 500, times: 3 });
    await waitFor(() => states.slice(before).includes("syncing"), 5_000, "recovery");
    expect(path(states.slice(before))).toEqual(["reconnecting", "error", "catchup", "syncing"]);
  });

  it("goes from catchup back to error when the catch-up sync fails too", async () => {
    const { svc, states } = setup();
    await svc.start();
    await waitFor(() => states.includes("syncing"));
    const before = states.length;
    server.faults.add({ path: "/sync", status: 500, times: 4 });
    await waitFor(() => states.slice(before).includes("syncing"), 5_000, "recovery");
    expect(path(states.slice(before))).toEqual([
      "reconnecting",
      "error",
      "catchup",
      "error",
      "catchup",
      "syncing",
    ]);
  });

  it("reaches prepared after a failed first sync, continuing to retry from no token", async () => {
    server.faults.add({ path: "/sync", status: 502, times: 1 });
    const { svc, states, http } = setup();
    await svc.start();
    await waitFor(() => states.includes("prepared"), 5_000, "prepared");
    expect(path(states)).toEqual(["reconnecting", "prepared"]);
    const syncs = http.requests.filter((r) => r.path === "/sync");
    expect(syncs[0]?.query).not.toHaveProperty("since");
    expect(syncs[1]?.query).not.toHaveProperty("since");
  });

  it("counts a 429 as a failure (no hidden retry) and recovers", async () => {
    const { svc, states } = setup();
    await svc.start();
    await waitFor(() => states.includes("syncing"));
    const before = states.length;
    server.faults.add({ path: "/sync", rateLimitMs: 50, times: 1 });
    await waitFor(() => states.slice(before).includes("syncing"));
    expect(path(states.slice(before))).toEqual(["reconnecting", "syncing"]);
  });

  it("treats dropped connections as failures: three give error, then catchup", async () => {
    const { svc, states } = setup();
    await svc.start();
    await waitFor(() => states.includes("syncing"));
    const before = states.length;
    server.faults.add({ path: "/sync", drop: true, times: 3 });
    await waitFor(() => states.slice(before).includes("syncing"), 5_000);
    expect(path(states.slice(before))).toEqual(["reconnecting", "error", "catchup", "syncing"]);
  });

  it("treats a garbage body as a protocol failure, not a lost connection, and does not advance the token", async () => {
    const { svc, states, processor } = setup();
    const failures: Array<string | null> = [];
    svc.failure.subscribe((f) => failures.push(f?.kind ?? null));
    await svc.start();
    await waitFor(() => states.includes("syncing"));
    const before = states.length;
    const batchesBefore = processor.batches.length;
    server.faults.add({ path: "/sync", garbage: true, times: 1 });
    await waitFor(() => failures.includes("protocol"), 5_000, "the protocol failure");
    await waitFor(
      () => processor.batches.length > batchesBefore && failures.at(-1) === null,
      5_000,
      "recovery",
    );
    // The state never said "reconnecting": the server answered, its answer was unusable.
    expect(path(states.slice(before))).toEqual([]);
    expect(server.faults.hits).toHaveLength(1);
    // Every processed batch continues from the previous one's next_batch: nothing skipped.
    const batches = processor.batches;
    for (let i = 1; i < batches.length; i++) {
      expect(batches[i]?.meta.since).toBe(batches[i - 1]?.response.next_batch);
    }
  });

  it("goes to error while the server is offline (the keep-alive fails) and to catchup when it returns", async () => {
    const scheduler = fastScheduler();
    const { svc, states } = setup({ scheduler });
    await svc.start();
    await waitFor(() => states.includes("syncing"));
    const before = states.length;
    server.faults.setOffline(true);
    await waitFor(() => states.slice(before).includes("error"), 5_000, "error");
    // A failed probe waits 5-10 s before the next one.
    await waitFor(() => scheduler.sleeps.some((ms) => ms >= 5_000 && ms < 10_000), 5_000, "retry wait");
    server.faults.setOffline(false);
    await waitFor(() => states.slice(before).includes("syncing"), 5_000, "recovery");
    expect(path(states.slice(before))).toEqual(["reconnecting", "error", "catchup", "syncing"]);
  });

  it("counts 404 and 400 from the keep-alive as reachable (after 2 s) and another error as error", async () => {
    const scheduler = fastScheduler();
    const { svc, states } = setup({ scheduler });
    await svc.start();
    await waitFor(() => states.includes("syncing"));
    let before = states.length;
    server.faults.add({ path: "/sync", status: 500, times: 1 });
    server.faults.add({ path: "/_matrix/client/versions", status: 404, times: 1 });
    await waitFor(() => states.slice(before).includes("syncing"));
    expect(path(states.slice(before))).toEqual(["reconnecting", "syncing"]);
    expect(scheduler.sleeps).toContain(2_000);

    before = states.length;
    server.faults.add({ path: "/sync", status: 500, times: 1 });
    server.faults.add({ path: "/_matrix/client/versions", status: 400, times: 1 });
    await waitFor(() => states.slice(before).includes("syncing"));
    expect(path(states.slice(before))).toEqual(["reconnecting", "syncing"]);

    before = states.length;
    server.faults.add({ path: "/sync", status: 500, times: 1 });
    server.faults.add({ path: "/_matrix/client/versions", status: 503, times: 1 });
    await waitFor(() => states.slice(before).includes("syncing"));
    expect(path(states.slice(before))).toEqual(["reconnecting", "error", "catchup", "syncing"]);
  });

  it("stops on M_UNKNOWN_TOKEN with state error and the spec's log line", async () => {
    const onUnknownToken = vi.fn();
    const { svc, states, logger } = setup({ onUnknownToken });
    await svc.start();
    await waitFor(() => states.includes("syncing"));
    server.faults.add({ path: "/sync", status: 401, errcode: "M_UNKNOWN_TOKEN", times: 1 });
    await waitFor(() => !svc.isRunning, 5_000, "stop");
    expect(svc.state.getSnapshot()).toBe("error");
    expect(logger.lines).toContain("Token no longer valid - assuming logout");
    expect(onUnknownToken).toHaveBeenCalledTimes(1);
    expect(() => svc.requireRunning()).toThrow("Client is not running");
  });

  it("reacts to the browser: offline cuts the long-poll, online probes at once instead of waiting", async () => {
    const platform = fakePlatform();
    const { svc, states } = setup({ scheduler: fastScheduler(0.001), platform });
    await svc.start();
    await waitFor(() => states.includes("syncing"));
    const before = states.length;
    platform.handlers?.online(false);
    await waitFor(() => states.slice(before).includes("reconnecting"), 1_000, "reconnecting");
    platform.handlers?.online(true);
    // Timers run 1,000 times slower than real time here: the keep-alive's
    // 2 s wait would take half an hour, so syncing again means the online
    // event woke the probe.
    await waitFor(() => states.slice(before).includes("syncing"), 10_000, "woken sync");
  });

  it("probes at once when the page becomes visible again", async () => {
    const platform = fakePlatform();
    const { svc, states } = setup({ scheduler: fastScheduler(0.001), platform });
    await svc.start();
    await waitFor(() => states.includes("syncing"));
    const before = states.length;
    server.faults.add({ path: "/sync", status: 500, times: 1 });
    await waitFor(() => states.slice(before).includes("reconnecting"), 2_000);
    platform.handlers?.visible(true);
    // Timers run 1,000 times slower: only the visibility event can wake the probe.
    await waitFor(() => states.slice(before).includes("syncing"), 10_000, "woken sync");
  });

  it("goes to stopped on stop()", async () => {
    const { svc, states } = setup();
    await svc.start();
    await waitFor(() => states.includes("prepared"));
    await svc.stop();
    expect(svc.state.getSnapshot()).toBe("stopped");
    expect(svc.isRunning).toBe(false);
  });
});
