/**
 * TimelineWindow: SPEC §9's initial load 20, limit 1000 and 10 paginations
 * per step; unpaginating either end; following the live end; items patched
 * in place (update diffs) on edits and redactions; a limited sync moving a
 * window that followed the live end; ref-counted timelines on Room.
 */
import { describe, expect, it } from "vitest";
import { roomVersionRules } from "../../../src/models/room-versions";
import { Rooms } from "../../../src/models/room/Rooms";
import { TimelineSet } from "../../../src/models/timeline/TimelineSet";
import {
  TIMELINE_WINDOW_INITIAL_LOAD,
  TIMELINE_WINDOW_LIMIT,
  TIMELINE_WINDOW_MAX_PAGINATIONS,
  TimelineWindow,
} from "../../../src/models/timeline/TimelineWindow";
import type { ListDiff } from "../../../src/util/observable-list";
import { applyDiffs } from "../../../src/util/observable-list";
import { FakeScheduler } from "../../support/fake-scheduler";
import { ME, batch, edit, joined, redaction } from "../support/room-fixtures";
import { ROOM, historyEvent, historyHttp } from "./history";

function makeSet(n: number, seedFrom: number, pageSize?: number) {
  const http = historyHttp(n);
  const events = Array.from({ length: n - seedFrom }, (_, k) => historyEvent(seedFrom + k));
  const set = new TimelineSet(
    {
      roomId: ROOM,
      http,
      scheduler: new FakeScheduler(),
      rules: () => roomVersionRules("10"),
      ...(pageSize ? { pageSize } : {}),
    },
    { events, backToken: `p${seedFrom}` },
  );
  return { http, set };
}

const nums = (w: TimelineWindow) => w.items.getSnapshot().map((i) => Number(i.eventId.slice(2)));
const range = (a: number, b: number) => Array.from({ length: b - a }, (_, i) => a + i);

describe("TimelineWindow", () => {
  it("uses the spec's constants", () => {
    expect(TIMELINE_WINDOW_LIMIT).toBe(1000);
    expect(TIMELINE_WINDOW_MAX_PAGINATIONS).toBe(10);
    expect(TIMELINE_WINDOW_INITIAL_LOAD).toBe(20);
  });

  it("loads the newest 20 events, paginating back when sync gave fewer", async () => {
    const { set, http } = makeSet(100, 95);
    const w = new TimelineWindow(set);
    await w.load();
    expect(nums(w)).toEqual(range(80, 100));
    expect(http.count(/messages/)).toBe(1);
    expect(w.atLiveEnd).toBe(true);
  });

  it("makes at most 10 requests per step", async () => {
    const { set, http } = makeSet(1000, 990, 1);
    const w = new TimelineWindow(set, { initialLoad: 10 });
    await w.load();
    expect(await w.paginate("b", 50)).toBe(true);
    expect(http.count(/messages/)).toBe(10);
    expect(w.size).toBe(20);
  });

  it("keeps at most `limit` events, unpaginating the far end, and unpaginates on request", async () => {
    const { set } = makeSet(200, 0);
    const w = new TimelineWindow(set, { limit: 50 });
    await w.load();
    await w.paginate("b", 40);
    expect(w.size).toBe(50);
    // Paginating back drops the newest events beyond the limit.
    expect(nums(w)).toEqual(range(140, 190));
    w.unpaginate(10, true);
    expect(nums(w)).toEqual(range(150, 190));
    w.unpaginate(5, false);
    expect(nums(w)).toEqual(range(150, 185));
    expect(w.canPaginate("f")).toBe(true);
    await w.paginate("f", 100);
    expect(nums(w)).toEqual(range(150, 200));
  });

  it("publishes diffs that rebuild the snapshot, follows the live end and patches items in place", async () => {
    const { set } = makeSet(100, 90);
    const w = new TimelineWindow(set, { initialLoad: 5 });
    await w.load();
    let copy = [...w.items.getSnapshot()];
    const kinds: string[] = [];
    w.items.subscribe((_snap, diffs: readonly ListDiff<unknown>[]) => {
      kinds.push(...diffs.map((d) => d.type));
    });
    w.items.subscribe((_snap, diffs) => {
      copy = applyDiffs(copy, diffs);
    });
    set.addLive([historyEvent(100), historyEvent(101)], false, undefined);
    expect(nums(w)).toEqual(range(95, 102));
    set.addLive([edit("$ed", "$e100", 200_000, "new text", "@alice:hs")], false, undefined);
    expect(w.items.getSnapshot().at(-2)?.content["body"]).toBe("new text");
    set.addLive([redaction("$red", "$e101", 300_000)], false, undefined);
    expect(w.items.getSnapshot().at(-1)?.redacted).toBe(true);
    expect(kinds).toEqual(["insert", "insert", "update", "update"]);
    expect(copy).toEqual(w.items.getSnapshot());
    expect(nums(w)).toEqual(range(95, 102));
  });

  it("moves a window at the live end to the new live chunk after a limited sync", async () => {
    const { set } = makeSet(100, 90);
    const w = new TimelineWindow(set);
    await w.load();
    set.addLive([historyEvent(150), historyEvent(151)], true, "p150");
    expect(nums(w)).toEqual([150, 151]);
    expect(w.canPaginate("b")).toBe(true);
  });

  it("loads around an event via /context", async () => {
    const { set } = makeSet(100, 90);
    const w = new TimelineWindow(set, { initialLoad: 10 });
    await w.load("$e40");
    expect(nums(w)).toContain(40);
    expect(w.size).toBe(10);
    expect(w.atLiveEnd).toBe(false);
  });
});

describe("a window opened around an event", () => {
  it("follows its chunk into the live chunk once forward pagination meets it, then follows the live end", async () => {
    const { set } = makeSet(100, 90);
    const w = new TimelineWindow(set, { initialLoad: 10, limit: 200 });
    await w.load("$e60");
    expect(w.atLiveEnd).toBe(false);
    while (!w.atLiveEnd && w.canPaginate("f")) await w.paginate("f", 30);
    expect(w.atLiveEnd).toBe(true);
    expect(nums(w)).toEqual(range(55, 100));
    set.addLive([historyEvent(100)], false, undefined);
    expect(nums(w).at(-1)).toBe(100);
    w.dispose();
  });
});

describe("Room timelines are materialised only while held", () => {
  it("drops the timeline when the last window closes and starts again from the recent sync events", async () => {
    const http = historyHttp(100);
    const rooms = new Rooms({ userId: ME, http, scheduler: new FakeScheduler() });
    rooms.handle(batch({ [ROOM]: joined({ events: range(70, 100).map(historyEvent), prevBatch: "p70" }) }));
    const room = rooms.get(ROOM);
    expect(room.timelineMaterialised).toBe(false);
    const a = room.openTimeline();
    const b = room.openTimeline();
    await a.load();
    await a.paginate("b", 60);
    expect(a.size).toBe(80);
    a.close();
    a.close();
    expect(room.timelineMaterialised).toBe(true);
    b.close();
    expect(room.timelineMaterialised).toBe(false);
    const c = room.openTimeline();
    await c.load();
    expect(nums(c)).toEqual(range(80, 100));
    expect(room.recentEvents.length).toBe(30);
    c.close();
  });
});
