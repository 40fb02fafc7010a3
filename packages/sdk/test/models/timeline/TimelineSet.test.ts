/**
 * TimelineSet: the live chunk from sync, gaps from limited syncs closed by
 * back-pagination (30 a page), /context and timestamp_to_event jumps,
 * retries after 3000 ms on fake time, 'No message returned when trying to
 * construct getLatestTimeline', and relations applied as events arrive.
 */
import { describe, expect, it } from "vitest";
import { roomVersionRules } from "../../../src/models/room-versions";
import { SCROLLBACK_PAGE_SIZE, SCROLLBACK_RETRY_DELAY_MS } from "../../../src/models/timeline/pagination";
import { TimelineSet } from "../../../src/models/timeline/TimelineSet";
import { FakeScheduler, flush } from "../../support/fake-scheduler";
import { Rooms } from "../../../src/models/room/Rooms";
import { FakeHttp, ME, batch, edit, joined, member, reaction, redaction } from "../support/room-fixtures";
import { ROOM, historyEvent, historyHttp } from "./history";

function makeSet(http: FakeHttp, scheduler = new FakeScheduler(), seedFrom?: number, n = 100) {
  const events =
    seedFrom === undefined ? [] : Array.from({ length: n - seedFrom }, (_, k) => historyEvent(seedFrom + k));
  return new TimelineSet(
    { roomId: ROOM, http, scheduler, rules: () => roomVersionRules("10") },
    { events, backToken: seedFrom === undefined ? null : `p${seedFrom}` },
  );
}

const ids = (events: readonly { event_id: string }[]) => events.map((e) => Number(e.event_id.slice(2)));
const range = (a: number, b: number) => Array.from({ length: b - a }, (_, i) => a + i);

describe("TimelineSet", () => {
  it("back-paginates 30 events a page until the start of the room, then stops asking", async () => {
    expect(SCROLLBACK_PAGE_SIZE).toBe(30);
    const http = historyHttp(100);
    const set = makeSet(http, undefined, 80);
    expect(await set.paginate(set.live, "b")).toBe(30);
    expect(http.requests[0]?.query).toMatchObject({ dir: "b", limit: 30, from: "p80" });
    await set.paginate(set.live, "b");
    expect(await set.paginate(set.live, "b")).toBe(20);
    expect(set.live.backToken).toBeNull();
    expect(await set.paginate(set.live, "b")).toBe(0);
    expect(http.count(/messages/)).toBe(3);
    expect(ids(set.live.events)).toEqual(range(0, 100));
  });

  it("shares one request between concurrent paginations of the same edge", async () => {
    const http = historyHttp(100);
    const set = makeSet(http, undefined, 80);
    const [a, b] = await Promise.all([set.paginate(set.live, "b"), set.paginate(set.live, "b")]);
    expect([a, b]).toEqual([30, 30]);
    expect(http.count(/messages/)).toBe(1);
  });

  it("starts a new live chunk on a limited sync and closes the gap by back-pagination", async () => {
    const http = historyHttp(100);
    const set = makeSet(http, undefined, 50, 60);
    const old = set.live;
    const changes: string[] = [];
    set.on((c) => changes.push(c.type));
    set.addLive([historyEvent(95), historyEvent(96)], true, "p95");
    expect(set.live).not.toBe(old);
    expect(old.live).toBe(false);
    expect(changes).toEqual(["newLive"]);
    expect(set.chunkOf("$e55")).toBe(old);
    expect(set.live.backToken).toBe("p95");
    await set.paginate(set.live, "b");
    await set.paginate(set.live, "b");
    // The second page reached $e59..$e35: events before $e60 are the old chunk's, merged.
    expect(set.chunkOf("$e55")).toBe(set.live);
    expect(ids(set.live.events)).toEqual(range(50, 97));
    expect(set.live.backToken).toBe("p50");
  });

  it("retries a failed page after 3000 ms on the injected scheduler", async () => {
    expect(SCROLLBACK_RETRY_DELAY_MS).toBe(3000);
    const http = historyHttp(100);
    let failures = 1;
    const ok = historyHttp(100);
    http.on(/\/messages$/, (req) => {
      if (failures-- > 0) throw new Error("offline");
      return ok.request({ ...req });
    });
    const scheduler = new FakeScheduler();
    const set = makeSet(http, scheduler, 80);
    const done = set.paginate(set.live, "b");
    await flush();
    expect(scheduler.pending()).toEqual([3000]);
    await scheduler.advance(2999);
    expect(http.count(/messages/)).toBe(1);
    await scheduler.advance(1);
    expect(await done).toBe(30);
    expect(http.count(/messages/)).toBe(2);
  });

  it("gives up after three attempts with the last error", async () => {
    const http = new FakeHttp().on(/\/messages$/, () => {
      throw new Error("down");
    });
    const scheduler = new FakeScheduler();
    const set = makeSet(http, scheduler, 80);
    const done = set.paginate(set.live, "b");
    const caught = done.catch((e: unknown) => e);
    await scheduler.advance(3000);
    await scheduler.advance(3000);
    expect(((await caught) as Error).message).toBe("down");
    expect(http.count(/messages/)).toBe(3);
  });

  it("jumps to an event via /context and forward pagination joins it to the live chunk", async () => {
    const http = historyHttp(100);
    const set = makeSet(http, undefined, 90);
    const chunk = await set.jumpToEvent("$e40", 20);
    expect(chunk).not.toBe(set.live);
    expect(ids(chunk.events)).toEqual(range(30, 51));
    expect(await set.jumpToEvent("$e45")).toBe(chunk);
    expect(http.count(/context/)).toBe(1);
    for (let i = 0; i < 3 && set.chunkOf("$e40") !== set.live; i++) await set.paginate(chunk, "f");
    expect(set.chunkOf("$e40")).toBe(set.live);
    expect(ids(set.live.events)).toEqual(range(30, 100));
  });

  it("jumps to a date via timestamp_to_event then /context", async () => {
    const http = historyHttp(100);
    const set = makeSet(http, undefined, 90);
    const { eventId, chunk } = await set.jumpToDate(20_500);
    expect(eventId).toBe("$e21");
    expect(chunk.indexOf("$e21")).toBeGreaterThanOrEqual(0);
    expect(http.requests.find((r) => r.path.endsWith("timestamp_to_event"))?.query).toMatchObject({
      ts: 20_500,
      dir: "f",
    });
  });

  it("throws the spec message when the server returns no latest event", async () => {
    const http = new FakeHttp().on(/\/messages$/, () => ({ start: "x", chunk: [] }));
    const set = makeSet(http);
    await expect(set.loadLatest()).rejects.toThrow(
      "No message returned when trying to construct getLatestTimeline",
    );
    const full = historyHttp(10);
    const { eventId } = await makeSet(full).loadLatest();
    expect(eventId).toBe("$e9");
  });

  it("applies edits, reactions and a later redaction in place, and redacts a target that arrives after its redaction", () => {
    const http = new FakeHttp();
    const set = makeSet(http);
    const relations: string[][] = [];
    set.on((c) => {
      if (c.type === "relations") relations.push([...c.eventIds]);
    });
    set.addLive(
      [historyEvent(1), edit("$ed", "$e1", 5000, "fixed", "@alice:hs"), reaction("$r", "$e1", "👍", 6000)],
      false,
      undefined,
    );
    const item = set.itemOf(set.event("$e1")!);
    expect(item.content["body"]).toBe("fixed");
    expect(item.edited).toBe(true);
    expect(item.reactions).toMatchObject([{ key: "👍", count: 1 }]);
    set.addLive([redaction("$x", "$e1", 7000)], false, undefined);
    const stripped = set.event("$e1")!;
    expect(stripped.content).toEqual({});
    expect(set.itemOf(stripped)).toMatchObject({ redacted: true, edited: false, reactions: [] });
    // The redaction reaches windows as an in-place replace, not as a relations change.
    expect(relations).toEqual([["$e1"]]);
    // The redaction came first this time: the target arrives stripped.
    set.addLive([redaction("$y", "$e2", 8000)], false, undefined);
    set.ingestBackward(set.live, [historyEvent(2)], null);
    expect(set.event("$e2")?.content).toEqual({});
  });
});

describe("lazy-loaded members from pagination", () => {
  it("adds members a page brings that the room does not know, never overriding current state", async () => {
    const history = historyHttp(100);
    const state = [
      { ...member("@alice:hs", "join", { displayname: "Old Alice" }), room_id: ROOM },
      { ...member("@carol:hs", "join", { displayname: "Carol" }), room_id: ROOM },
      { not: "an event" },
    ];
    const http = historyHttp(100).on(/\/messages$/, async (req) => ({
      ...(await history.request<Record<string, unknown>>(req)),
      state,
    }));
    const rooms = new Rooms({ userId: ME, http, scheduler: new FakeScheduler() });
    rooms.handle(
      batch({
        [ROOM]: joined({
          state: [member("@alice:hs", "join", { displayname: "Alice" })],
          events: [historyEvent(99)],
          prevBatch: "p99",
        }),
      }),
    );
    const room = rooms.get(ROOM);
    const w = room.openTimeline();
    await w.load();
    const members = room.getSnapshot().members;
    expect(members.get("@carol:hs")?.name).toBe("Carol");
    expect(members.get("@alice:hs")?.name).toBe("Alice");
    w.close();
  });
});
