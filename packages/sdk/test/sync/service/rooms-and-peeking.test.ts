/**
 * Left rooms (one sync with the left-rooms filter and timeout 0) and
 * peeking (room initialSync, then GET /events with timeout 30000 and from,
 * retried after 30 s, 'Peeking aborted' on stop), over HTTP where the
 * homeserver can show it and on fake time for the retry rule.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ClientEvent } from "../../../src/api/types/events";
import type { HttpApi, RequestOptions } from "../../../src/http/types";
import { MemoryStore } from "../../../src/store/MemoryStore";
import { PeekingAbortedError } from "../../../src/sync/errors";
import { leftRoomsOf } from "../../../src/sync/left-rooms";
import { PEEK_RETRY_MS, readPeekAnswer, startPeeking } from "../../../src/sync/peeking";
import { SyncService } from "../../../src/sync/SyncService";
import { FakeScheduler, flush } from "../../support/fake-scheduler";
import {
  call,
  clientFor,
  fastScheduler,
  quietLogger,
  recording,
  RecordingProcessor,
  register,
  sendText,
  startServer,
  waitFor,
} from "./helpers";
import type { TestServerHandle, TestUser } from "./helpers";

let server: TestServerHandle;
let alice: TestUser;
let bob: TestUser;
let service: SyncService | undefined;

beforeAll(async () => {
  server = await startServer(45);
  [alice, bob] = await Promise.all([register(server, "alice"), register(server, "bob")]);
});
afterEach(async () => {
  await service?.stop();
  service = undefined;
  server.faults.reset();
});
afterAll(async () => {
  await server.stop();
});

function startService(user: TestUser, http: HttpApi = clientFor(server, user)): SyncService {
  service = new SyncService({
    http,
    store: new MemoryStore(),
    userId: user.userId,
    processor: (s) => new RecordingProcessor(s),
    pollTimeoutMs: 100,
    scheduler: fastScheduler(),
    logger: quietLogger(),
  });
  return service;
}

async function publicRoom(): Promise<string> {
  const created = await call(server, alice, "POST", "/createRoom", {
    preset: "public_chat",
    initial_state: [
      { type: "m.room.history_visibility", state_key: "", content: { history_visibility: "world_readable" } },
    ],
  });
  return String(created["room_id"]);
}

describe("left rooms", () => {
  it("fetches the rooms the user left with the left-rooms filter and timeout 0", async () => {
    const roomId = await publicRoom();
    await call(server, bob, "POST", `/join/${encodeURIComponent(roomId)}`, {});
    await call(server, bob, "POST", `/rooms/${encodeURIComponent(roomId)}/leave`, {});
    const http = recording(clientFor(server, bob));
    const svc = startService(bob, http);
    await expect(svc.loadLeftRooms()).rejects.toThrow("Client is not running");
    await svc.start();
    const left = await svc.loadLeftRooms();
    expect([...left.keys()]).toContain(roomId);
    const includesLeave = (r: RequestOptions): boolean =>
      r.method === "POST" &&
      (r.body as { room?: { include_leave?: boolean } } | undefined)?.room?.include_leave === true;
    const filterPosts = () => http.requests.filter(includesLeave);
    expect(filterPosts()).toHaveLength(1);
    const mainFilterId = (await svc.store.getClientOptions())?.["filterId"];
    const leftSyncs = http.requests.filter((r) => r.path === "/sync" && r.query?.["filter"] !== mainFilterId);
    expect(leftSyncs).toHaveLength(1);
    expect(leftSyncs[0]?.query?.["timeout"]).toBe(0);
    expect(leftSyncs[0]?.query).not.toHaveProperty("since");
    // A second call reuses the uploaded left-rooms filter.
    await svc.loadLeftRooms();
    expect(filterPosts()).toHaveLength(1);
  });

  it("reads only object-valued rooms from an untrusted answer, ids as data", () => {
    const rooms = leftRoomsOf(
      JSON.parse('{"rooms":{"leave":{"__proto__":{"timeline":{}},"!a:x":{},"!b:x":5,"!c:x":null}}}'),
    );
    expect([...rooms.keys()].sort()).toEqual(["!a:x", "__proto__"]);
    for (const junk of [null, 1, "x", { rooms: 5 }, { rooms: { leave: [] } }])
      expect(leftRoomsOf(junk).size).toBe(0);
  });
});

describe("peeking over HTTP", () => {
  it("loads the room with initialSync, then hands new events to the listener until stopped", async () => {
    const roomId = await publicRoom();
    const svc = startService(bob);
    await svc.start();
    const received: ClientEvent[] = [];
    const session = await svc.peekRoom(roomId, (events) => received.push(...events));
    expect(session.initial.room_id).toBe(roomId);
    const eventId = await sendText(server, alice, roomId, "hello peekers");
    await waitFor(() => received.some((e) => e.event_id === eventId), 5_000, "peeked event");
    svc.stopPeeking();
    await expect(session.done).rejects.toThrow("Peeking aborted");
    await expect(session.done).rejects.toBeInstanceOf(PeekingAbortedError);
  });

  it("rejects a pending initial sync with 'Peeking aborted' when stopped", async () => {
    const roomId = await publicRoom();
    const svc = startService(bob);
    await svc.start();
    server.faults.add({ path: "/initialSync", delayMs: 200, times: 1 });
    const pending = svc.peekRoom(roomId, () => undefined);
    svc.stopPeeking();
    await expect(pending).rejects.toThrow("Peeking aborted");
  });

  it("needs a running client", async () => {
    const svc = startService(bob);
    await expect(svc.peekRoom("!x:localhost", () => undefined)).rejects.toThrow("Client is not running");
  });
});

/** An HttpApi that answers initialSync at once and /events from a script. */
function scriptedPeekHttp(events: Array<"fail" | { chunk: unknown[]; end: string }>) {
  const requests: RequestOptions[] = [];
  const http: HttpApi = {
    request<T>(o: RequestOptions): Promise<T> {
      requests.push(o);
      if (o.path.endsWith("/initialSync")) {
        return Promise.resolve({ room_id: "!r:x", messages: { chunk: [], start: "t0", end: "t1" } } as T);
      }
      const next = events.shift();
      if (next === undefined) {
        return new Promise<T>((_, reject) =>
          o.signal?.addEventListener("abort", () => reject(new Error("aborted"))),
        );
      }
      return next === "fail" ? Promise.reject(new Error("network down")) : Promise.resolve(next as T);
    },
  };
  return { http, requests };
}

describe("peeking on fake time", () => {
  it("polls /events with room_id, timeout 30000 and from, and retries 30 s after a failure", async () => {
    const scheduler = new FakeScheduler();
    const ev = { type: "m.room.message", event_id: "$1", room_id: "!r:x", content: {} };
    const { http, requests } = scriptedPeekHttp(["fail", { chunk: [ev], end: "t2" }]);
    const received: ClientEvent[] = [];
    const session = await startPeeking({
      http,
      roomId: "!r:x",
      onEvents: (e) => received.push(...e),
      scheduler,
      logger: quietLogger(),
    });
    await flush();
    const polls = () => requests.filter((r) => r.path === "/events");
    expect(polls()).toHaveLength(1);
    expect(polls()[0]?.query).toEqual({ room_id: "!r:x", timeout: 30_000, from: "t1" });
    expect(scheduler.pending()).toEqual([PEEK_RETRY_MS]);
    await scheduler.advance(PEEK_RETRY_MS - 1);
    expect(polls()).toHaveLength(1);
    await scheduler.advance(1);
    expect(polls().length).toBeGreaterThanOrEqual(2);
    expect(received.map((e) => e.event_id)).toEqual(["$1"]);
    expect(polls()[2]?.query?.["from"]).toBe("t2");
    session.stop();
    await expect(session.done).rejects.toThrow("Peeking aborted");
  });

  it("rejects with 'Peeking aborted' when stopped during the retry wait", async () => {
    const scheduler = new FakeScheduler();
    const { http } = scriptedPeekHttp(["fail"]);
    const session = await startPeeking({
      http,
      roomId: "!r:x",
      onEvents: () => undefined,
      scheduler,
      logger: quietLogger(),
    });
    await flush();
    expect(scheduler.pending()).toEqual([PEEK_RETRY_MS]);
    session.stop();
    await expect(session.done).rejects.toBeInstanceOf(PeekingAbortedError);
  });

  it("keeps only well-formed events of this room from an untrusted answer", () => {
    const answer = readPeekAnswer(
      {
        chunk: [
          { type: "m.room.message", event_id: "$ok", room_id: "!r:x" },
          { type: "m.room.message", event_id: "$other", room_id: "!s:x" },
          { type: 5, event_id: "$bad" },
          null,
        ],
        end: 7,
      },
      "!r:x",
    );
    expect(answer.events.map((e) => e.event_id)).toEqual(["$ok"]);
    expect(answer.end).toBeUndefined();
    expect(readPeekAnswer("junk", "!r:x")).toEqual({ events: [] });
  });
});
