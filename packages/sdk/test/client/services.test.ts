/**
 * Unit tests of the client services over a recording fake HttpApi and fake
 * time: receipts (pending echoes, guests, Unknown room), typing (20000 ms,
 * renewal before expiry, stop), account data retries (5 attempts, backoff,
 * no retry of client errors), presence, search paging and URL previews.
 */
import { describe, expect, it } from "vitest";
import type { RequestOptions, HttpApi } from "../../src/http/types";
import { MatrixError } from "../../src/http/errors";
import type { RoomSnapshot } from "../../src/models/room/Room";
import { ModelError, unknownRoom } from "../../src/models/errors";
import {
  AccountDataService,
  PresenceService,
  ReceiptService,
  SearchService,
  TypingService,
  UrlPreviewService,
} from "../../src/client/index";
import type { RoomLookup } from "../../src/client/index";
import { ClientNotRunningError } from "../../src/sync/errors";
import { FakeScheduler } from "../support/fake-scheduler";

type Answer = unknown;

/** Records every request; answers from a queue of values or errors (default {}). */
class FakeHttp implements HttpApi {
  readonly requests: RequestOptions[] = [];
  readonly answers: Answer[] = [];

  request<T>(options: RequestOptions): Promise<T> {
    this.requests.push(options);
    const next = this.answers.length > 0 ? this.answers.shift() : {};
    const value = typeof next === "function" ? (next as (r: RequestOptions) => unknown)(options) : next;
    return value instanceof Error ? Promise.reject(value) : Promise.resolve(value as T);
  }
}

const ME = "@me:test";
const actor = { userId: ME, guest: false };
const guest = { userId: ME, guest: true };

function lookup(rooms: Record<string, Partial<RoomSnapshot>>): RoomLookup {
  const map = new Map(Object.entries(rooms));
  return {
    get(roomId) {
      const snap = map.get(roomId);
      if (snap === undefined) throw unknownRoom(roomId);
      return { getSnapshot: () => snap as RoomSnapshot };
    },
  };
}

function serverError(status: number, errcode = "M_UNKNOWN"): MatrixError {
  return new MatrixError({ errcode, error: "boom", httpStatus: status });
}

describe("ReceiptService", () => {
  it("sends m.read, m.read.private and threaded receipts to the receipt endpoint", async () => {
    const http = new FakeHttp();
    const receipts = new ReceiptService({ http, actor });
    await receipts.sendReceipt("!r:test", "$e1");
    await receipts.sendReceipt("!r:test", "$e2", { private: true, threadId: "$root" });
    expect(http.requests.map((r) => [r.method, r.path, r.body])).toEqual([
      ["POST", "/rooms/!r%3Atest/receipt/m.read/%24e1", {}],
      ["POST", "/rooms/!r%3Atest/receipt/m.read.private/%24e2", { thread_id: "$root" }],
    ]);
  });

  it("moves m.fully_read with read_markers", async () => {
    const http = new FakeHttp();
    const receipts = new ReceiptService({ http, actor });
    expect(await receipts.setReadMarkers("!r:test", { fullyRead: "$a", readPrivate: "$b" })).toBe(true);
    expect(http.requests[0]?.path).toBe("/rooms/!r%3Atest/read_markers");
    expect(http.requests[0]?.body).toEqual({ "m.fully_read": "$a", "m.read.private": "$b" });
  });

  it("refuses a pending local echo before any request", async () => {
    const http = new FakeHttp();
    const receipts = new ReceiptService({
      http,
      actor,
      statusOf: (id) => (id === "$sent-but-pending" ? "sent" : null),
    });
    for (const id of ["m1700000000000.0", "$sent-but-pending"]) {
      await expect(receipts.sendReceipt("!r:test", id)).rejects.toThrow(
        "A read marker or receipt cannot be set to a pending event",
      );
    }
    await expect(receipts.setReadMarkers("!r:test", { fullyRead: "txn1" })).rejects.toBeInstanceOf(
      ModelError,
    );
    expect(http.requests).toHaveLength(0);
  });

  it("sends nothing for guests", async () => {
    const http = new FakeHttp();
    const receipts = new ReceiptService({ http, actor: guest });
    expect(await receipts.sendReceipt("!r:test", "$e")).toBe(false);
    expect(await receipts.setReadMarkers("!r:test", { fullyRead: "$e" })).toBe(false);
    expect(http.requests).toHaveLength(0);
  });

  it("refuses unknown rooms and a stopped client", async () => {
    const http = new FakeHttp();
    const known = new ReceiptService({ http, actor, rooms: lookup({ "!known:test": {} }) });
    await expect(known.sendReceipt("!other:test", "$e")).rejects.toThrow("Unknown room");
    const stopped = new ReceiptService({
      http,
      actor,
      running: {
        requireRunning: () => {
          throw new ClientNotRunningError();
        },
      },
    });
    await expect(stopped.sendReceipt("!r:test", "$e")).rejects.toThrow("Client is not running");
    expect(http.requests).toHaveLength(0);
  });
});

describe("TypingService", () => {
  it("sends 20000 ms notices, renews them before expiry while typing, and stops", async () => {
    const http = new FakeHttp();
    const scheduler = new FakeScheduler();
    const typing = new TypingService({ http, actor, scheduler });
    await typing.setTyping("!r:test", true);
    expect(http.requests[0]?.body).toEqual({ typing: true, timeout: 20_000 });
    // Typing again while typing sends nothing new.
    expect(await typing.setTyping("!r:test", true)).toBe(false);
    expect(http.requests).toHaveLength(1);

    await scheduler.advance(14_999);
    expect(http.requests).toHaveLength(1);
    await scheduler.advance(1);
    expect(http.requests).toHaveLength(2);
    expect(http.requests[1]?.body).toEqual({ typing: true, timeout: 20_000 });
    await scheduler.advance(15_000);
    expect(http.requests).toHaveLength(3);

    await typing.setTyping("!r:test", false);
    expect(http.requests[3]?.body).toEqual({ typing: false });
    expect(typing.isTyping("!r:test")).toBe(false);
    await scheduler.advance(60_000);
    expect(http.requests).toHaveLength(4);
    expect(scheduler.pending()).toEqual([]);
  });

  it("honours a custom time-out and sends nothing for guests", async () => {
    const http = new FakeHttp();
    const scheduler = new FakeScheduler();
    const typing = new TypingService({ http, actor, scheduler, timeoutMs: 4_000 });
    await typing.setTyping("!r:test", true);
    expect(http.requests[0]?.body).toEqual({ typing: true, timeout: 4_000 });
    await scheduler.advance(2_000);
    expect(http.requests).toHaveLength(2);
    typing.dispose();
    expect(scheduler.pending()).toEqual([]);

    const guestTyping = new TypingService({ http: new FakeHttp(), actor: guest, scheduler });
    expect(await guestTyping.setTyping("!r:test", true)).toBe(false);
    expect(scheduler.pending()).toEqual([]);
  });

  it("keeps no renewal when the first notice fails", async () => {
    const http = new FakeHttp();
    http.answers.push(serverError(403, "M_FORBIDDEN"));
    const scheduler = new FakeScheduler();
    const typing = new TypingService({ http, actor, scheduler });
    await expect(typing.setTyping("!r:test", true)).rejects.toBeInstanceOf(MatrixError);
    expect(typing.isTyping("!r:test")).toBe(false);
    expect(scheduler.pending()).toEqual([]);
  });
});

describe("AccountDataService", () => {
  it("retries a failed write with doubling backoff and succeeds on the fourth attempt", async () => {
    const http = new FakeHttp();
    http.answers.push(serverError(500), serverError(502), serverError(500), {});
    const scheduler = new FakeScheduler();
    const service = new AccountDataService({ http, actor, scheduler });
    let done = false;
    const write = service.set("org.example", { a: 1 }).then(() => (done = true));
    await scheduler.advance(0);
    expect(scheduler.pending()).toEqual([1_000]);
    await scheduler.advance(1_000);
    expect(scheduler.pending()).toEqual([2_000]);
    await scheduler.advance(2_000);
    expect(scheduler.pending()).toEqual([4_000]);
    await scheduler.advance(4_000);
    await write;
    expect(done).toBe(true);
    expect(http.requests).toHaveLength(4);
    // The HTTP layer's own retries are off, so the count is the service's.
    expect(http.requests.every((r) => r.retry === false && r.method === "PUT")).toBe(true);
  });

  it("gives up after 5 attempts and does not retry client errors", async () => {
    const http = new FakeHttp();
    for (let i = 0; i < 6; i++) http.answers.push(serverError(500));
    const scheduler = new FakeScheduler();
    const service = new AccountDataService({ http, actor, scheduler });
    const write = service.set("org.example", {});
    const outcome = write.then(
      () => "ok",
      (e: unknown) => e,
    );
    await scheduler.advance(60_000);
    expect(await outcome).toBeInstanceOf(MatrixError);
    expect(http.requests).toHaveLength(5);

    const http2 = new FakeHttp();
    http2.answers.push(serverError(400, "M_BAD_JSON"));
    const service2 = new AccountDataService({ http: http2, actor, scheduler });
    await expect(service2.addTag("!r:test", "m.favourite", 0.5)).rejects.toBeInstanceOf(MatrixError);
    expect(http2.requests).toHaveLength(1);
  });

  it("reads not found as null and tags as a map", async () => {
    const http = new FakeHttp();
    http.answers.push(serverError(404, "M_NOT_FOUND"), {
      tags: { "m.favourite": { order: 0.1 }, __proto__: { order: 1 }, bad: 3 },
    });
    const service = new AccountDataService({ http, actor });
    expect(await service.get("org.none")).toBeNull();
    const tags = await service.tags("!r:test");
    expect(tags.get("m.favourite")).toEqual({ order: 0.1 });
    expect(tags.has("bad")).toBe(false);
  });
});

describe("PresenceService", () => {
  it("refuses anything but offline, online or unavailable before any request", async () => {
    const http = new FakeHttp();
    const presence = new PresenceService({ http, actor });
    await expect(presence.set("busy" as "online")).rejects.toThrow("Bad presence value");
    expect(http.requests).toHaveLength(0);
    await presence.set("unavailable", "lunch");
    expect(http.requests[0]?.body).toEqual({ presence: "unavailable", status_msg: "lunch" });
  });
});

describe("SearchService", () => {
  it("asks for 1 event of context each side, pages with next_batch, then refuses", async () => {
    const http = new FakeHttp();
    const hit = (id: string): unknown => ({ rank: 1, result: { event_id: id } });
    http.answers.push(
      { search_categories: { room_events: { count: 3, results: [hit("$1"), hit("$2")], next_batch: "b2" } } },
      { search_categories: { room_events: { count: 3, results: [hit("$3")] } } },
    );
    const search = new SearchService({ http });
    const first = await search.search("hello", { roomIds: ["!r:test"] });
    const criteria = (http.requests[0]?.body as { search_categories: { room_events: unknown } })
      .search_categories.room_events;
    expect(criteria).toMatchObject({
      search_term: "hello",
      event_context: { before_limit: 1, after_limit: 1 },
      filter: { rooms: ["!r:test"] },
    });
    expect(first.nextBatch).toBe("b2");
    const second = await search.backPaginate(first);
    expect(http.requests[1]?.query).toEqual({ next_batch: "b2" });
    expect(second.results.map((r) => r.result?.event_id)).toEqual(["$1", "$2", "$3"]);
    expect(first.results).toHaveLength(2);
    await expect(search.backPaginate(second)).rejects.toThrow("Cannot backpaginate event search any further");
    expect(http.requests).toHaveLength(2);
  });

  it("survives a hostile answer", async () => {
    const http = new FakeHttp();
    http.answers.push({ search_categories: { room_events: { results: "nope", highlights: [1, "a"] } } });
    const results = await new SearchService({ http }).search("x");
    expect(results.results).toEqual([]);
    expect(results.highlights).toEqual(["a"]);
    expect(results.nextBatch).toBeUndefined();
  });
});

describe("UrlPreviewService", () => {
  it("rounds ts to the minute and caches per URL and minute", async () => {
    const http = new FakeHttp();
    http.answers.push({ "og:title": "one" }, { "og:title": "two" });
    let now = 1_700_000_012_345;
    const previews = new UrlPreviewService({ http, now: () => now });
    expect(await previews.preview("http://x.test/")).toEqual({ "og:title": "one" });
    now += 10_000;
    expect(await previews.preview("http://x.test/")).toEqual({ "og:title": "one" });
    expect(http.requests).toHaveLength(1);
    expect(http.requests[0]?.query).toEqual({ url: "http://x.test/", ts: 1_699_999_980_000 });
    now += 60_000;
    expect(await previews.preview("http://x.test/")).toEqual({ "og:title": "two" });
    expect(http.requests).toHaveLength(2);
  });

  it("never previews links in encrypted rooms; remembers a failure per URL for an hour", async () => {
    const http = new FakeHttp();
    http.answers.push(serverError(502), { "og:title": "ok" });
    const rooms = lookup({ "!enc:test": { isEncrypted: true }, "!plain:test": { isEncrypted: false } });
    let now = 0;
    const previews = new UrlPreviewService({ http, rooms, now: () => now });
    expect(await previews.preview("http://x.test/", "!enc:test")).toBeNull();
    expect(http.requests).toHaveLength(0);
    await expect(previews.preview("http://x.test/", "!plain:test")).rejects.toBeInstanceOf(MatrixError);
    // Asked again (the room shown again, minutes later): the same error, no request.
    now += 5 * 60_000;
    await expect(previews.preview("http://x.test/", "!plain:test")).rejects.toBeInstanceOf(MatrixError);
    expect(http.requests).toHaveLength(1);
    now += 60 * 60_000;
    expect(await previews.preview("http://x.test/", "!plain:test")).toEqual({ "og:title": "ok" });
    expect(http.requests).toHaveLength(2);
    await expect(previews.preview("http://x.test/", "!nope:test")).rejects.toThrow("Unknown room");
  });

  it("asks again after a request that got no answer", async () => {
    const http = new FakeHttp();
    http.answers.push(new TypeError("fetch failed"), { "og:title": "back" });
    const previews = new UrlPreviewService({ http, now: () => 0 });
    await expect(previews.preview("http://y.test/")).rejects.toThrow("fetch failed");
    expect(await previews.preview("http://y.test/")).toEqual({ "og:title": "back" });
    expect(http.requests).toHaveLength(2);
  });
});
