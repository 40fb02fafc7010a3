/**
 * The send queue over HTTP against the test homeserver, with fault
 * injection and IndexedDB (fake-indexeddb): sending while offline then
 * reconnecting and reloading loses nothing, repeats nothing and keeps the
 * order (checked in the room's timeline via /messages); a crash after the
 * server accepted an event resends the same txn id and the server
 * de-duplicates it; 5xx and 429 are retried; a refused event can be
 * cancelled or resent; remote echo and the encryption guard through the
 * real sync.
 */
import "fake-indexeddb/auto";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { registerUser } from "@lattice/testserver/test/helpers";
import type { TestUser } from "@lattice/testserver/test/helpers";
import { createHttpClient } from "../../src/http/client";
import type { HttpApi } from "../../src/http/types";
import { MatrixError } from "../../src/http/errors";
import { SendQueue, ToDeviceQueue } from "../../src/send";
import type { SendQueueOptions } from "../../src/send";
import { IndexedDbStore } from "../../src/store/indexeddb/IndexedDbStore";
import { MemoryStore } from "../../src/store/MemoryStore";
import { SyncProcessor } from "../../src/sync/processor/SyncProcessor";
import { SyncService } from "../../src/sync/SyncService";
import type { SyncState } from "../../src/sync/SyncLoop";
import { ObservableValue } from "../../src/util/observable";
import { fastScheduler, quietLogger, waitFor } from "../sync/service/helpers";

let server: TestServerHandle;
let alice: TestUser;
let bob: TestUser;
let dbCounter = 0;

beforeAll(async () => {
  server = await startTestServer({ seed: 505 });
  alice = await registerUser(server, "alice");
  bob = await registerUser(server, "bob");
});
afterAll(async () => {
  await server.stop();
});
afterEach(() => {
  server.faults.reset();
});

async function call(
  user: TestUser,
  method: string,
  path: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const res = await fetch(`${server.url}/_matrix/client/v3${path}`, {
    method,
    headers: { Authorization: `Bearer ${user.accessToken}`, "Content-Type": "application/json" },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function createRoom(user: TestUser, body: Record<string, unknown> = {}): Promise<string> {
  return String((await call(user, "POST", "/createRoom", body))["room_id"]);
}

/** The bodies of m.room.message events in the room's timeline, oldest first, as the server has them. */
async function timelineBodies(roomId: string): Promise<string[]> {
  const page = await call(alice, "GET", `/rooms/${encodeURIComponent(roomId)}/messages?dir=b&limit=100`);
  const chunk = (page["chunk"] as Array<Record<string, unknown>>) ?? [];
  return chunk
    .filter((e) => e["type"] === "m.room.message")
    .map((e) => String((e["content"] as Record<string, unknown>)["body"]))
    .reverse();
}

function http(): HttpApi {
  return createHttpClient({ baseUrl: server.url, accessToken: alice.accessToken, retry: false });
}

function idbStore(dbName: string): IndexedDbStore {
  return new IndexedDbStore({
    indexedDB: (globalThis as unknown as { indexedDB: object }).indexedDB,
    dbName,
  });
}

function queue(options: Partial<SendQueueOptions> & Pick<SendQueueOptions, "store">): SendQueue {
  return new SendQueue({
    http: http(),
    scheduler: fastScheduler(100),
    retry: { maxAttempts: 2 },
    ...options,
  });
}

const text = (body: string) => ({ msgtype: "m.text", body });

describe("send queue over HTTP", () => {
  it("sends while offline after reconnect, then after a reload: nothing lost, nothing twice, order kept", async () => {
    const roomId = await createRoom(alice);
    const dbName = `send-${++dbCounter}`;
    const connection = new ObservableValue<SyncState | null>("syncing");
    let store = idbStore(dbName);
    await store.open();
    const first = queue({ store, connection });
    await first.start();

    server.faults.setOffline(true);
    const sent = ["A", "B", "C"].map((b) => first.send(roomId, "m.room.message", text(b)));
    await waitFor(() => first.get(sent[0]!.txnId)?.status === "not_sent", 10_000, "A to give up");
    expect(first.get(sent[0]!.txnId)?.failure?.message).toBe("Server unreachable");
    expect(first.get(sent[2]!.txnId)?.failure?.message).toBe("Event blocked by other events not yet sent");
    server.faults.setOffline(false);
    connection.set("reconnecting");
    connection.set("syncing");
    await waitFor(() => sent.every((e) => first.get(e.txnId)?.status === "sent"), 10_000, "A-C sent");

    server.faults.setOffline(true);
    const later = ["D", "E"].map((b) => first.send(roomId, "m.room.message", text(b)));
    await waitFor(() => first.get(later[0]!.txnId)?.status === "not_sent", 10_000, "D to give up");
    // Reload: the page goes away with D and E unsent; the next run opens the same database.
    first.dispose();
    await store.close();
    server.faults.setOffline(false);
    store = idbStore(dbName);
    await store.open();
    const second = queue({ store, connection });
    await second.start();
    expect(
      second
        .room(roomId)
        .getSnapshot()
        .map((e) => e.txnId),
    ).toEqual(later.map((e) => e.txnId));
    await waitFor(() => later.every((e) => second.get(e.txnId)?.status === "sent"), 10_000, "D-E sent");
    for (let i = 0; i < 100 && (await store.getPendingEvents()).length > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(await store.getPendingEvents()).toEqual([]);
    expect(await timelineBodies(roomId)).toEqual(["A", "B", "C", "D", "E"]);
    second.dispose();
    await store.close();
  }, 40_000);

  it("a crash after the server accepted an event resends the same txn id, and the server keeps one copy", async () => {
    const roomId = await createRoom(alice);
    const dbName = `send-${++dbCounter}`;
    let store = idbStore(dbName);
    await store.open();
    const real = http();
    const answers: Array<{ path: string; eventId: string }> = [];
    let crashed = false;
    const crashing: HttpApi = {
      request: async <T>(options: Parameters<HttpApi["request"]>[0]): Promise<T> => {
        const answer = await real.request<{ event_id: string }>(options);
        answers.push({ path: options.path, eventId: answer.event_id });
        // The tab dies before the answer is recorded.
        first.dispose();
        crashed = true;
        return new Promise<T>(() => undefined);
      },
    };
    const first = queue({ store, http: crashing });
    await first.start();
    const ev = first.send(roomId, "m.room.message", text("once"));
    await waitFor(() => crashed);
    await store.close();

    store = idbStore(dbName);
    await store.open();
    const recorded: Array<{ path: string; eventId: string }> = [];
    const watching: HttpApi = {
      request: async <T>(options: Parameters<HttpApi["request"]>[0]): Promise<T> => {
        const answer = await real.request<{ event_id: string }>(options);
        recorded.push({ path: options.path, eventId: answer.event_id });
        return answer as T;
      },
    };
    const second = queue({ store, http: watching });
    await second.start();
    await waitFor(() => second.get(ev.txnId)?.status === "sent");
    expect(recorded.map((r) => r.path)).toEqual(answers.map((a) => a.path));
    expect(recorded[0]?.path.endsWith(`/${ev.txnId}`)).toBe(true);
    expect(recorded[0]?.eventId).toBe(answers[0]?.eventId);
    expect(await timelineBodies(roomId)).toEqual(["once"]);
    second.dispose();
    await store.close();
  });

  it("retries 500s and a 429 until sent", async () => {
    const roomId = await createRoom(alice);
    const scheduler = fastScheduler(100);
    const q = queue({ store: new MemoryStore(), scheduler, retry: { maxAttempts: 4 } });
    await q.start();
    server.faults.add({ path: "/send/", status: 500, times: 2 });
    const a = q.send(roomId, "m.room.message", text("after 500s"));
    await waitFor(() => q.get(a.txnId)?.status === "sent");
    expect(server.faults.hits.filter((h) => h.path.includes("/send/"))).toHaveLength(2);
    server.faults.add({ path: "/send/", rateLimitMs: 200, times: 1 });
    const b = q.send(roomId, "m.room.message", text("after 429"));
    await waitFor(() => q.get(b.txnId)?.status === "sent");
    expect(scheduler.sleeps).toContain(200);
    expect(await timelineBodies(roomId)).toEqual(["after 500s", "after 429"]);
    q.dispose();
  });

  it("a refused event is not_sent with the server's error, and can be cancelled or resent", async () => {
    const roomId = await createRoom(bob);
    const q = queue({ store: new MemoryStore() });
    await q.start();
    const a = q.send(roomId, "m.room.message", text("let me in"));
    const b = q.send(roomId, "m.room.message", text("never mind"));
    await waitFor(() => q.get(a.txnId)?.status === "not_sent");
    const failure = q.get(a.txnId)?.failure;
    expect(failure?.kind).toBe("forbidden");
    expect(failure?.error).toBeInstanceOf(MatrixError);
    expect((failure?.error as MatrixError).errcode).toBe("M_FORBIDDEN");
    expect(q.get(b.txnId)?.failure?.message).toBe("Event blocked by other events not yet sent");
    q.cancel(b.txnId);
    await call(bob, "POST", `/rooms/${encodeURIComponent(roomId)}/invite`, { user_id: alice.userId });
    await call(alice, "POST", `/join/${encodeURIComponent(roomId)}`, {});
    q.resend(a.txnId);
    await waitFor(() => q.get(a.txnId)?.status === "sent");
    expect(await timelineBodies(roomId)).toEqual(["let me in"]);
    q.dispose();
  });

  it("with the real sync: the remote echo replaces the local echo, and encrypted rooms are refused", async () => {
    const plain = await createRoom(alice);
    const encrypted = await createRoom(alice, {
      initial_state: [
        { type: "m.room.encryption", state_key: "", content: { algorithm: "m.megolm.v1.aes-sha2" } },
      ],
    });
    let processor: SyncProcessor | undefined;
    const logger = quietLogger();
    const svc = new SyncService({
      http: http(),
      store: new MemoryStore(),
      userId: alice.userId,
      processor: (s) => (processor = new SyncProcessor({ store: s, logger })),
      pollTimeoutMs: 100,
      scheduler: fastScheduler(),
      logger,
    });
    const q = queue({ store: new MemoryStore(), connection: svc.state });
    q.attach(processor!);
    await q.start();
    await svc.start();
    await waitFor(() => svc.state.getSnapshot() === "syncing" || svc.state.getSnapshot() === "prepared");
    const echoes: string[] = [];
    q.onRemoteEcho((e) => echoes.push(e.txnId));
    const ev = q.send(plain, "m.room.message", text("echo me"));
    await waitFor(() => q.room(plain).getSnapshot().length === 0, 10_000, "remote echo");
    expect(echoes).toEqual([ev.txnId]);
    const secret = q.send(encrypted, "m.room.message", text("secret"));
    await waitFor(() => q.get(secret.txnId)?.status === "not_sent");
    expect(q.get(secret.txnId)?.failure?.message).toBe(
      "This room is configured to use encryption, but your client does not support encryption.",
    );
    expect(await timelineBodies(encrypted)).toEqual([]);
    expect(await timelineBodies(plain)).toEqual(["echo me"]);
    q.dispose();
    await svc.stop();
  });

  it("the to-device queue survives offline time and a crash after acceptance: the device gets the message once", async () => {
    const dbName = `send-${++dbCounter}`;
    let store = idbStore(dbName);
    await store.open();
    const real = http();
    let accepted = 0;
    const crashing: HttpApi = {
      request: async <T>(options: Parameters<HttpApi["request"]>[0]): Promise<T> => {
        await real.request(options);
        accepted++;
        first.dispose();
        return new Promise<T>(() => undefined);
      },
    };
    const first = new ToDeviceQueue({ http: crashing, store, scheduler: fastScheduler(100) });
    first.start();
    server.faults.setOffline(true);
    const batch = await first.queue("org.lattice.test", [
      { userId: bob.userId, deviceId: bob.deviceId, payload: { n: "only once" } },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(accepted).toBe(0);
    server.faults.setOffline(false);
    await waitFor(() => accepted === 1, 10_000, "the server to accept");
    await store.close();

    store = idbStore(dbName);
    await store.open();
    expect((await store.nextToDevice())?.txnId).toBe(batch.txnId);
    const second = new ToDeviceQueue({ http: http(), store, scheduler: fastScheduler(100) });
    second.start();
    await second.whenIdle();
    expect(await store.nextToDevice()).toBeNull();
    const sync = await call(bob, "GET", "/sync?timeout=0");
    const events = ((sync["to_device"] as Record<string, unknown> | undefined)?.["events"] ?? []) as Array<
      Record<string, unknown>
    >;
    expect(events.filter((e) => e["type"] === "org.lattice.test").map((e) => e["content"])).toEqual([
      { n: "only once" },
    ]);
    second.dispose();
    await store.close();
  });
});
