/**
 * The processor behind a real SyncLoop over HTTP against the test
 * homeserver, restarted from fake-indexeddb: the restored rooms and their
 * latest events come before any request, every message sent reaches the
 * subscriber, and only a crashed run's unsaved events are emitted again.
 */
import "fake-indexeddb/auto";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpClient } from "../../../src/http/client";
import { IndexedDbStore } from "../../../src/store/indexeddb/IndexedDbStore";
import { SyncLoop } from "../../../src/sync/SyncLoop";
import type { SyncRequest, SyncTransport } from "../../../src/sync/SyncLoop";
import { SyncProcessor } from "../../../src/sync/processor/SyncProcessor";
import { HttpSyncTransport } from "../../../src/sync/transport";
import { recordingLogger } from "../processor/fixtures";

let server: TestServerHandle;
let token: string;

async function call(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${server.url}/_matrix/client/v3${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function register(name: string): Promise<string> {
  const post = async (body: unknown) => {
    const res = await fetch(`${server.url}/_matrix/client/v3/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  let answer = await post({ username: name, password: "pw" });
  if (answer.status === 401) {
    answer = await post({
      username: name,
      password: "pw",
      auth: { type: "m.login.dummy", session: answer.body["session"] },
    });
  }
  return String(answer.body["access_token"]);
}

let txn = 0;
async function send(roomId: string): Promise<string> {
  const body = { msgtype: "m.text", body: `message ${txn}` };
  const reply = await call("PUT", `/rooms/${encodeURIComponent(roomId)}/send/m.room.message/t${txn++}`, body);
  return String(reply["event_id"]);
}

/** Counts the requests of a transport. */
class Counting implements SyncTransport {
  requests = 0;
  constructor(private readonly inner: SyncTransport) {}
  sync(request: SyncRequest) {
    this.requests += 1;
    return this.inner.sync(request);
  }
  probe(timeoutMs: number, signal: AbortSignal) {
    return this.inner.probe(timeoutMs, signal);
  }
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** One client run that syncs until it has seen `expected`, then stops or crashes. */
async function run(dbName: string, expected: readonly string[], ending: "stop" | "crash") {
  const store = new IndexedDbStore({
    indexedDB: (globalThis as unknown as { indexedDB: object }).indexedDB,
    dbName,
  });
  await store.open();
  const logger = recordingLogger();
  const processor = new SyncProcessor({ store, logger });
  const transport = new Counting(
    new HttpSyncTransport({
      http: createHttpClient({ baseUrl: server.url, accessToken: token }),
      stateAfter: "none",
    }),
  );
  const restored = new Map<string, string[]>();
  let requestsBeforeRestore = -1;
  const live: string[] = [];
  processor.subscribe((batch) => {
    for (const [roomId, room] of batch.rooms.join) {
      const ids = room.timeline.events.filter((e) => e.type === "m.room.message").map((e) => e.event_id);
      if (batch.fromCache) restored.set(roomId, ids);
      else live.push(...ids);
    }
    if (batch.fromCache) requestsBeforeRestore = transport.requests;
  });
  const since = await processor.restore();
  const loop = new SyncLoop({
    transport,
    handler: processor.handle,
    logger,
    pollTimeoutMs: 1_000,
    ...(since ? { since } : {}),
  });
  loop.start();
  const seen = () => new Set([...[...restored.values()].flat(), ...live]);
  await until(() => expected.every((id) => seen().has(id)), "all messages");
  await loop.stop();
  if (ending === "stop") await processor.stop();
  await store.close();
  return { restored, requestsBeforeRestore, live };
}

beforeAll(async () => {
  server = await startTestServer({ seed: 404 });
  token = await register("reload-alice");
});
afterAll(async () => {
  await server.stop();
});

describe("reload against the test homeserver", () => {
  it("restores before the network, then continues without losing or repeating a message", async () => {
    const rooms: string[] = [];
    for (let i = 0; i < 3; i++)
      rooms.push(String((await call("POST", "/createRoom", { name: `room ${i}` }))["room_id"]));
    const sent: string[] = [];
    for (const roomId of rooms) for (let i = 0; i < 4; i++) sent.push(await send(roomId));

    const first = await run("http-reload", sent, "stop");
    expect(first.requestsBeforeRestore).toBe(-1);

    for (const roomId of rooms) sent.push(await send(roomId));
    const second = await run("http-reload", sent, "crash");
    expect(second.requestsBeforeRestore).toBe(0);
    expect([...second.restored.keys()].sort()).toEqual([...rooms].sort());
    for (const roomId of rooms) expect(second.restored.get(roomId)).toHaveLength(4);

    for (const roomId of rooms) sent.push(await send(roomId));
    const third = await run("http-reload", sent, "stop");
    expect(third.requestsBeforeRestore).toBe(0);

    const runs = [first, second, third];
    for (const r of runs) {
      const inRun = [...[...r.restored.values()].flat(), ...r.live];
      expect(new Set(inRun).size).toBe(inRun.length);
    }
    const liveAll = runs.flatMap((r) => r.live);
    expect(new Set(liveAll)).toEqual(new Set(sent));
    // Only what the crashed run emitted (and never saved) comes again.
    const repeated = liveAll.filter((id, i) => liveAll.indexOf(id) !== i);
    expect(repeated.every((id) => second.live.includes(id))).toBe(true);
    expect(first.live.filter((id) => third.live.includes(id))).toEqual([]);
  });
});
