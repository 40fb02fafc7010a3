/**
 * Retries on fake time: bounded exponential backoff with jitter for 5xx and
 * network failures, the server's retry_after_ms for 429, giving up with a
 * clear reason, and holding sends while the sync says the connection is
 * down, resuming on reconnect.
 */
import { describe, expect, it } from "vitest";
import { ConnectionError, MatrixError } from "../../src/http/errors";
import { DEFAULT_SEND_RETRY_POLICY, SendQueue, sendRetryDelay } from "../../src/send";
import type { SendQueueOptions } from "../../src/send";
import { MemoryStore } from "../../src/store/MemoryStore";
import type { SyncState } from "../../src/sync/SyncLoop";
import { ObservableValue } from "../../src/util/observable";
import { FakeScheduler, flush } from "../support/fake-scheduler";
import { networkError, rateLimited, ScriptedHttp, serverError } from "./helpers";

const ROOM = "!room:x";
const text = { msgtype: "m.text", body: "hello" };

async function setup(options: Partial<SendQueueOptions> = {}) {
  const http = new ScriptedHttp();
  const scheduler = new FakeScheduler([0.5]);
  const queue = new SendQueue({ http, store: new MemoryStore(), scheduler, ...options });
  await queue.start();
  return { http, scheduler, queue };
}

/** Fails the first `n` requests with `error`, then accepts. */
function failing(http: ScriptedHttp, n: number, error: () => Error): void {
  let left = n;
  http.handler = () => (left-- > 0 ? Promise.reject(error()) : Promise.resolve({ event_id: "$ok" }));
}

describe("backoff", () => {
  it("retries 5xx with growing, jittered delays, then sends", async () => {
    const { queue, http, scheduler } = await setup();
    failing(http, 2, () => serverError(502));
    const ev = queue.send(ROOM, "m.room.message", text);
    await flush();
    expect(http.requests).toHaveLength(1);
    expect(queue.get(ev.txnId)?.status).toBe("queued");
    // random 0.5: half the cap plus a quarter: 1000 ms cap -> 750, 2000 ms cap -> 1500.
    expect(scheduler.pending()).toEqual([750]);
    await scheduler.advance(749);
    expect(http.requests).toHaveLength(1);
    await scheduler.advance(1);
    expect(http.requests).toHaveLength(2);
    expect(scheduler.pending()).toEqual([1500]);
    await scheduler.advance(1500);
    expect(http.requests).toHaveLength(3);
    expect(queue.get(ev.txnId)).toMatchObject({ status: "sent", eventId: "$ok" });
  });

  it("gives up after the bounded attempts with the server's error kept", async () => {
    const { queue, http, scheduler } = await setup();
    failing(http, 100, () => serverError(503));
    const ev = queue.send(ROOM, "m.room.message", text);
    await scheduler.advance(120_000);
    expect(http.requests).toHaveLength(DEFAULT_SEND_RETRY_POLICY.maxAttempts);
    const failure = queue.get(ev.txnId)?.failure;
    expect(failure?.kind).toBe("server_error");
    expect(failure?.message).toBe("The server failed (HTTP 503)");
    expect((failure?.error as MatrixError).httpStatus).toBe(503);
    expect(scheduler.pending()).toEqual([]);
  });

  it("waits exactly the server's retry_after_ms on 429, and gives up when it asks too much", async () => {
    const { queue, http, scheduler } = await setup();
    failing(http, 1, () => rateLimited(200));
    const ev = queue.send(ROOM, "m.room.message", text);
    await flush();
    expect(scheduler.pending()).toEqual([200]);
    await scheduler.advance(200);
    expect(queue.get(ev.txnId)?.status).toBe("sent");
    failing(http, 1, () => rateLimited(120_000));
    const slow = queue.send(ROOM, "m.room.message", text);
    await flush();
    expect(queue.get(slow.txnId)?.failure?.kind).toBe("rate_limited");
  });

  it("marks an event Server unreachable after network failures, and retries time-outs", async () => {
    const { queue, http, scheduler } = await setup({ retry: { maxAttempts: 3 } });
    failing(http, 3, () => networkError());
    const ev = queue.send(ROOM, "m.room.message", text);
    await scheduler.advance(60_000);
    expect(http.requests).toHaveLength(3);
    expect(queue.get(ev.txnId)?.failure).toMatchObject({
      kind: "unreachable",
      message: "Server unreachable",
    });
    failing(http, 1, () => new ConnectionError("timeout", "timed out"));
    const next = queue.send("!b:x", "m.room.message", text);
    await scheduler.advance(60_000);
    expect(queue.get(next.txnId)?.status).toBe("sent");
  });

  it("does not retry refusals", async () => {
    const { queue, http, scheduler } = await setup();
    failing(http, 1, () => new MatrixError({ errcode: "M_TOO_LARGE", error: "big", httpStatus: 413 }));
    const ev = queue.send(ROOM, "m.room.message", text);
    await scheduler.advance(60_000);
    expect(http.requests).toHaveLength(1);
    expect(queue.get(ev.txnId)?.failure).toMatchObject({
      kind: "too_large",
      message: "The message is too large to send",
    });
  });

  it("keeps every computed delay within the policy's bounds", () => {
    for (const random of [0, 0.5, 0.999]) {
      for (let attempt = 1; attempt < DEFAULT_SEND_RETRY_POLICY.maxAttempts; attempt++) {
        const delay = sendRetryDelay(serverError(), attempt, DEFAULT_SEND_RETRY_POLICY, () => random);
        const cap = Math.min(30_000, 1000 * 2 ** (attempt - 1));
        expect(delay).toBeGreaterThanOrEqual(cap / 2);
        expect(delay).toBeLessThanOrEqual(cap);
      }
    }
    const policy = { ...DEFAULT_SEND_RETRY_POLICY, maxAttempts: 20 };
    expect(sendRetryDelay(serverError(), 15, policy, () => 0.999)).toBeLessThanOrEqual(30_000);
    expect(sendRetryDelay(serverError(), 5, DEFAULT_SEND_RETRY_POLICY, () => 0)).toBeNull();
  });
});

describe("connection down", () => {
  it("holds sends while the sync reconnects and resumes when it is back", async () => {
    const connection = new ObservableValue<SyncState | null>("reconnecting");
    const { queue, http, scheduler } = await setup({ connection });
    const a = queue.send(ROOM, "m.room.message", { body: "a" });
    const b = queue.send(ROOM, "m.room.message", { body: "b" });
    await scheduler.advance(600_000);
    expect(http.requests).toHaveLength(0);
    expect(queue.get(a.txnId)?.status).toBe("queued");
    connection.set("catchup");
    await flush();
    expect(http.requests.map((r) => r.body)).toEqual([{ body: "a" }, { body: "b" }]);
    expect(queue.get(b.txnId)?.status).toBe("sent");
  });

  it("a network failure after the sync noticed the outage holds without spending attempts", async () => {
    const connection = new ObservableValue<SyncState | null>("syncing");
    const { queue, http, scheduler } = await setup({ connection, retry: { maxAttempts: 2 } });
    let offline = true;
    http.handler = () => {
      if (!offline) return Promise.resolve({ event_id: "$back" });
      connection.set("error");
      return Promise.reject(networkError());
    };
    const ev = queue.send(ROOM, "m.room.message", text);
    await scheduler.advance(600_000);
    expect(http.requests).toHaveLength(1);
    expect(queue.get(ev.txnId)?.status).toBe("queued");
    offline = false;
    connection.set("syncing");
    await flush();
    expect(queue.get(ev.txnId)).toMatchObject({ status: "sent", eventId: "$back" });
  });

  it("events that gave up as Server unreachable go again on reconnect", async () => {
    const connection = new ObservableValue<SyncState | null>("syncing");
    const { queue, http, scheduler } = await setup({ connection, retry: { maxAttempts: 1 } });
    failing(http, 1, () => networkError());
    const a = queue.send(ROOM, "m.room.message", { body: "a" });
    const b = queue.send(ROOM, "m.room.message", { body: "b" });
    await scheduler.advance(1000);
    expect(queue.get(a.txnId)?.failure?.kind).toBe("unreachable");
    expect(queue.get(b.txnId)?.failure?.kind).toBe("blocked");
    connection.set("reconnecting");
    connection.set("syncing");
    await flush();
    expect(queue.get(a.txnId)?.status).toBe("sent");
    expect(queue.get(b.txnId)?.status).toBe("sent");
    expect(http.requests.map((r) => r.body)).toEqual([{ body: "a" }, { body: "a" }, { body: "b" }]);
  });
});
