/**
 * The persistent to-device queue on fake time: stored before the PUT and
 * removed after, oldest first, retried with backoff, held while the
 * connection is down, refused batches dropped and reported, and a new queue
 * on the same store sends what was left with the same txn ids.
 */
import { describe, expect, it } from "vitest";
import { ToDeviceQueue, toWireMessages } from "../../src/send";
import type { ToDeviceQueueOptions } from "../../src/send";
import { MemoryStore } from "../../src/store/MemoryStore";
import type { ToDeviceBatch } from "../../src/store/Store";
import type { SyncState } from "../../src/sync/SyncLoop";
import { ObservableValue } from "../../src/util/observable";
import { FakeScheduler, flush } from "../support/fake-scheduler";
import { forbidden, networkError, ScriptedHttp, serverError, txnOf } from "./helpers";

const msg = (n: string): ToDeviceBatch["messages"] => [{ userId: "@b:x", deviceId: "DEV", payload: { n } }];

function setup(options: Partial<ToDeviceQueueOptions> = {}) {
  const http = new ScriptedHttp();
  http.handler = () => Promise.resolve({});
  const store = options.store ?? new MemoryStore();
  const scheduler = new FakeScheduler([0.5]);
  const queue = new ToDeviceQueue({ http, store, scheduler, ...options });
  return { http, store, scheduler, queue };
}

describe("to-device queue", () => {
  it("builds the wire messages with hostile ids kept as data", () => {
    const wire = toWireMessages([
      { userId: "__proto__", deviceId: "constructor", payload: { a: 1 } },
      { userId: "@b:x", deviceId: "*", payload: { b: 2 } },
    ]);
    expect(JSON.stringify(wire)).toBe('{"__proto__":{"constructor":{"a":1}},"@b:x":{"*":{"b":2}}}');
    expect(Object.keys(wire)).toEqual(["__proto__", "@b:x"]);
  });

  it("sends stored batches oldest first and removes each once accepted", async () => {
    const { queue, http, store } = setup();
    queue.start();
    const a = await queue.queue("m.room_key_request", msg("a"));
    const b = await queue.queue("m.room_key_request", msg("b"));
    expect(a.txnId).not.toBe(b.txnId);
    await flush();
    await queue.whenIdle();
    expect(http.paths).toEqual([
      `/sendToDevice/m.room_key_request/${a.txnId}`,
      `/sendToDevice/m.room_key_request/${b.txnId}`,
    ]);
    expect(http.requests[0]?.body).toEqual({ messages: { "@b:x": { DEV: { n: "a" } } } });
    expect(await store.nextToDevice()).toBeNull();
  });

  it("retries transient failures with backoff and keeps the batch until it goes", async () => {
    const { queue, http, store, scheduler } = setup();
    let fails = 2;
    http.handler = () => (fails-- > 0 ? Promise.reject(serverError(502)) : Promise.resolve({}));
    queue.start();
    await queue.queue("m.dummy", msg("x"));
    await flush();
    expect(scheduler.pending()).toEqual([750]);
    expect((await store.nextToDevice())?.eventType).toBe("m.dummy");
    await scheduler.advance(750 + 1500);
    await queue.whenIdle();
    expect(http.requests).toHaveLength(3);
    expect(new Set(http.requests.map(txnOf)).size).toBe(1);
    expect(await store.nextToDevice()).toBeNull();
  });

  it("holds while the connection is down and resumes on reconnect", async () => {
    const connection = new ObservableValue<SyncState | null>("error");
    const { queue, http } = setup({ connection });
    queue.start();
    await queue.queue("m.dummy", msg("x"));
    await flush();
    expect(http.requests).toHaveLength(0);
    connection.set("syncing");
    await flush();
    await queue.whenIdle();
    expect(http.requests).toHaveLength(1);
  });

  it("drops and reports a refused batch so the next one goes", async () => {
    const failures: string[] = [];
    const { queue, http, store } = setup({
      onFailure: (batch, failure) => failures.push(`${batch.txnId}:${failure.kind}`),
    });
    http.handler = () => (http.requests.length === 1 ? Promise.reject(forbidden()) : Promise.resolve({}));
    queue.start();
    const a = await queue.queue("m.dummy", msg("a"));
    await queue.queue("m.dummy", msg("b"));
    await flush();
    await queue.whenIdle();
    expect(failures).toEqual([`${a.txnId}:forbidden`]);
    expect(http.requests).toHaveLength(2);
    expect(await store.nextToDevice()).toBeNull();
  });

  it("a new queue on the same store sends what was left, with the same txn id", async () => {
    const store = new MemoryStore();
    const first = setup({ store });
    first.http.handler = () => Promise.reject(networkError());
    first.queue.start();
    const a = await first.queue.queue("m.dummy", msg("a"));
    await flush();
    first.queue.dispose();
    const second = setup({ store });
    second.queue.start();
    await flush();
    await second.queue.whenIdle();
    expect(second.http.requests.map(txnOf)).toEqual([a.txnId]);
    expect(await store.nextToDevice()).toBeNull();
  });
});
