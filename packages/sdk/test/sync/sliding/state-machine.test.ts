/**
 * The SyncLoop's state machine with the sliding transport, driven by the
 * test homeserver's fault injection: the server going offline (reconnecting,
 * error, catchup, syncing, continuing from the same pos), three failures in
 * a row, the browser's offline/online events, and M_UNKNOWN_TOKEN.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { PlatformAdapter, PlatformHandlers } from "../../../src/sync/platform";
import type { SyncState } from "../../../src/sync/SyncLoop";
import { fastScheduler } from "../service/helpers";
import { createRoom, register, sendText, SLIDING_PATH, startServer, syncClient, waitFor } from "./helpers";
import type { SyncClient, TestClientOptions, TestServerHandle, TestUser } from "./helpers";

let server: TestServerHandle;
let alice: TestUser;
let roomId: string;
let client: SyncClient | undefined;

beforeAll(async () => {
  server = await startServer(4189);
  alice = await register(server, "alice");
  roomId = await createRoom(server, alice, { name: "States" });
});
afterEach(async () => {
  await client?.svc.stop();
  client = undefined;
  await new Promise((resolve) => setTimeout(resolve, 50));
  server.faults.reset();
});
afterAll(async () => {
  await server.stop();
});

/** The distinct states in order (repeats collapsed). */
function path(states: Array<SyncState | null>): Array<SyncState | null> {
  return states.filter((s, i) => s !== states[i - 1]);
}

async function syncing(options: TestClientOptions = {}): Promise<SyncClient> {
  const c = syncClient(server, alice, { mode: "sliding", pollTimeoutMs: 150, ...options });
  client = c;
  await c.svc.start();
  await waitFor(() => c.states.includes("syncing"), 5_000, "syncing");
  return c;
}

describe("sliding sync state machine", () => {
  it("offline server: reconnecting, error, catchup, syncing, continuing from the same pos", async () => {
    const scheduler = fastScheduler();
    const c = await syncing({ scheduler });
    const before = c.states.length;
    const requestsBefore = c.http.requests.length;
    server.faults.setOffline(true);
    await waitFor(() => c.states.slice(before).includes("error"), 5_000, "error");
    await waitFor(() => scheduler.sleeps.some((ms) => ms >= 5_000 && ms < 10_000), 5_000, "retry wait");
    server.faults.setOffline(false);
    await waitFor(() => c.states.slice(before).includes("syncing"), 5_000, "recovery");
    expect(path(c.states.slice(before))).toEqual(["reconnecting", "error", "catchup", "syncing"]);
    // The catch-up asked with timeout 0 and the pos the failed request had: nothing restarted.
    const syncs = c.http.requests.slice(requestsBefore).filter((r) => r.path === "/sync");
    expect(syncs.every((r) => r.prefix + r.path === SLIDING_PATH)).toBe(true);
    expect(syncs.map((r) => r.query?.["timeout"])).toContain(0);
    expect(syncs.every((r) => typeof r.query?.["pos"] === "string")).toBe(true);
    expect(c.logger.lines.some((l) => l.includes("no longer knows our position"))).toBe(false);
    const id = await sendText(server, alice, roomId, "after the outage");
    await waitFor(() => c.liveIds(roomId).includes(id), 5_000, "the new event");
    expect(c.liveIds(roomId).filter((e) => e === id)).toHaveLength(1);
  });

  it("three failures in a row: reconnecting, error, catchup, syncing", async () => {
    const c = await syncing();
    const before = c.states.length;
    server.faults.add({ path: SLIDING_PATH, status: 500, times: 3 });
    await waitFor(() => c.states.slice(before).includes("syncing"), 5_000, "recovery");
    expect(path(c.states.slice(before))).toEqual(["reconnecting", "error", "catchup", "syncing"]);
    expect(server.faults.hits).toHaveLength(3);
  });

  it("browser offline cuts the long-poll; online probes at once", async () => {
    const platform: PlatformAdapter & { handlers?: PlatformHandlers } = {
      subscribe(handlers) {
        platform.handlers = handlers;
        return () => {
          platform.handlers = undefined;
        };
      },
    };
    const c = await syncing({ scheduler: fastScheduler(0.001), platform, pollTimeoutMs: 2_000 });
    const before = c.states.length;
    platform.handlers?.online(false);
    await waitFor(() => c.states.slice(before).includes("reconnecting"), 1_000, "reconnecting");
    platform.handlers?.online(true);
    // Timers run 1,000 times slower than real time here: the keep-alive's
    // 2 s wait would take half an hour, so syncing again means the online
    // event woke the probe.
    await waitFor(() => c.states.slice(before).includes("syncing"), 10_000, "woken sync");
  });

  it("stops on M_UNKNOWN_TOKEN with state error and the spec's log line", async () => {
    const onUnknownToken = vi.fn();
    const c = await syncing({ onUnknownToken });
    server.faults.add({ path: SLIDING_PATH, status: 401, errcode: "M_UNKNOWN_TOKEN", times: 1 });
    await waitFor(() => !c.svc.isRunning, 5_000, "stop");
    expect(c.svc.state.getSnapshot()).toBe("error");
    expect(c.logger.lines).toContain("Token no longer valid - assuming logout");
    expect(onUnknownToken).toHaveBeenCalledTimes(1);
  });
});
