/**
 * The thread lists publish a snapshot plus real diffs, never a reset: the
 * thread list moves a thread up with a remove and an insert, adds one with
 * an insert and updates counts in place; a thread timeline appends a live
 * reply with one insert, applies an edit, a reaction and a redaction as
 * updates of the item they change, and inserts older pages after the root.
 * Replaying the diffs on the previous snapshot always gives the new one.
 * patchList itself is checked against random sequences.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Rooms } from "../../../src/models/room/Rooms";
import { patchList } from "../../../src/models/threads/patch-list";
import { ThreadList } from "../../../src/models/threads/ThreadList";
import { ThreadTimeline } from "../../../src/models/threads/ThreadTimeline";
import { applyDiffs, ObservableList } from "../../../src/util/observable-list";
import type { ListDiff, ReadonlyObservableList } from "../../../src/util/observable-list";
import { FakeScheduler } from "../../support/fake-scheduler";
import {
  ALICE,
  BOB,
  FakeHttp,
  ME,
  batch,
  edit,
  joined,
  msg,
  reaction,
  redaction,
  threadReply,
} from "../support/room-fixtures";

const ROOM = "!d:hs";

function roomWithThreads(http: FakeHttp) {
  const rooms = new Rooms({ userId: ME, http, scheduler: new FakeScheduler() });
  rooms.handle(
    batch({
      [ROOM]: joined({
        events: [
          msg("$A", 1),
          threadReply("$a1", "$A", 2, ME),
          msg("$B", 3),
          threadReply("$b1", "$B", 4, ALICE),
        ],
      }),
    }),
  );
  return rooms.get(ROOM);
}

/** Records each notification's diffs and checks they replay onto the previous snapshot. */
function record<T>(list: ReadonlyObservableList<T>): { diffs: ListDiff<T>[][]; stop: () => void } {
  const diffs: ListDiff<T>[][] = [];
  let previous = list.getSnapshot();
  const stop = list.subscribe((snapshot, changes) => {
    expect(applyDiffs(previous, changes)).toEqual(snapshot);
    previous = snapshot;
    diffs.push([...changes]);
  });
  return { diffs, stop };
}

function kinds<T>(diffs: readonly ListDiff<T>[]): string[] {
  return diffs.map((d) => (d.type === "reset" ? "reset" : `${d.type}@${d.index}`));
}

describe("ThreadList diffs", () => {
  it("moves, adds and updates threads without a reset", () => {
    const http = new FakeHttp();
    const room = roomWithThreads(http);
    const list = new ThreadList({ room, http, scheduler: new FakeScheduler() });
    expect(list.items.getSnapshot().map((t) => t.rootId)).toEqual(["$B", "$A"]);
    const { diffs, stop } = record(list.items);

    // New activity in $A moves it to the top: remove at 1, insert at 0.
    room.applyJoined(joined({ events: [threadReply("$a2", "$A", 10, BOB)] }));
    expect(list.items.getSnapshot().map((t) => t.rootId)).toEqual(["$A", "$B"]);
    expect(kinds(diffs.at(-1) ?? [])).toEqual(["remove@1", "insert@0"]);

    // A reply in the thread already on top is an update in place.
    room.applyJoined(joined({ events: [threadReply("$a3", "$A", 11, BOB)] }));
    expect(kinds(diffs.at(-1) ?? [])).toEqual(["update@0"]);
    expect(list.items.getSnapshot()[0]?.replyCount).toBe(3);

    // A new thread is one insert.
    room.applyJoined(joined({ events: [msg("$C", 12), threadReply("$c1", "$C", 13, BOB)] }));
    expect(list.items.getSnapshot().map((t) => t.rootId)).toEqual(["$C", "$A", "$B"]);
    expect(diffs.flat().some((d) => d.type === "reset")).toBe(false);
    expect(diffs.at(-1)?.some((d) => d.type === "insert" && d.index === 0)).toBe(true);
    stop();
    list.dispose();
  });

  it("inserts a thread into the participated list when the user replies", () => {
    const http = new FakeHttp();
    const room = roomWithThreads(http);
    const list = new ThreadList({ room, http, scheduler: new FakeScheduler(), include: "participated" });
    expect(list.items.getSnapshot().map((t) => t.rootId)).toEqual(["$A"]);
    const { diffs, stop } = record(list.items);
    room.applyJoined(joined({ events: [threadReply("$b2", "$B", 20, ME)] }));
    expect(list.items.getSnapshot().map((t) => t.rootId)).toEqual(["$B", "$A"]);
    expect(kinds(diffs.flat())).toEqual(["insert@0"]);
    stop();
    list.dispose();
  });
});

describe("ThreadTimeline diffs", () => {
  it("appends, pages and patches items in place", async () => {
    const http = new FakeHttp().on(/\/relations\//, (req) =>
      req.query?.["from"] === undefined
        ? { chunk: [threadReply("$a3", "$A", 7), threadReply("$a2", "$A", 6)], next_batch: "r1" }
        : { chunk: [threadReply("$a1", "$A", 2, ME)] },
    );
    const room = roomWithThreads(http);
    const t = new ThreadTimeline({ room, rootId: "$A", http, scheduler: new FakeScheduler() });
    await t.load();
    const ids = (): string[] => t.items.getSnapshot().map((i) => i.eventId);
    expect(ids()).toEqual(["$A", "$a2", "$a3"]);
    const { diffs, stop } = record(t.items);
    const before = t.items.getSnapshot();

    await t.paginate();
    expect(ids()).toEqual(["$A", "$a1", "$a2", "$a3"]);
    expect(kinds(diffs.at(-1) ?? [])).toEqual(["insert@1"]);

    room.applyJoined(joined({ events: [threadReply("$a4", "$A", 9)] }));
    expect(kinds(diffs.at(-1) ?? [])).toEqual(["insert@4"]);

    room.applyJoined(joined({ events: [edit("$e", "$a2", 10, "fixed")] }));
    expect(kinds(diffs.at(-1) ?? [])).toEqual(["update@2"]);
    expect(t.items.getSnapshot()[2]?.content["body"]).toBe("fixed");

    room.applyJoined(joined({ events: [reaction("$r", "$a3", "👍", 11)] }));
    expect(kinds(diffs.at(-1) ?? [])).toEqual(["update@3"]);
    expect(t.items.getSnapshot()[3]?.reactions[0]).toMatchObject({ key: "👍", count: 1 });

    // Redacting the reaction updates the item it was on.
    room.applyJoined(joined({ events: [redaction("$x1", "$r", 12)] }));
    expect(kinds(diffs.at(-1) ?? [])).toEqual(["update@3"]);
    expect(t.items.getSnapshot()[3]?.reactions).toEqual([]);

    room.applyJoined(joined({ events: [redaction("$x2", "$A", 13)] }));
    expect(kinds(diffs.at(-1) ?? [])).toEqual(["update@0"]);
    expect(t.items.getSnapshot()[0]?.redacted).toBe(true);

    // Items nothing touched are the same objects as before.
    expect(t.items.getSnapshot()[4]).toBe(t.items.getSnapshot().find((i) => i.eventId === "$a4"));
    expect(t.items.getSnapshot().find((i) => i.eventId === "$a1")).not.toBe(undefined);
    expect(before.includes(t.items.getSnapshot().find((i) => i.eventId === "$a2") as never)).toBe(false);
    expect(diffs.flat().some((d) => d.type === "reset")).toBe(false);
    stop();
    t.dispose();
  });
});

describe("patchList", () => {
  it("turns any list into any other with diffs that replay to it", () => {
    const keys = fc.uniqueArray(fc.integer({ min: 0, max: 30 }), { maxLength: 20 });
    fc.assert(
      fc.property(keys, keys, fc.integer({ min: 0, max: 5 }), (from, to, bump) => {
        const objs = new Map<number, { id: number; v: number }>();
        const obj = (id: number, v = 0) => {
          const key = id * 10 + v;
          let o = objs.get(key);
          if (!o) objs.set(key, (o = { id, v }));
          return o;
        };
        const list = new ObservableList(from.map((id) => obj(id)));
        const next = to.map((id) => obj(id, id % 6 === bump ? 1 : 0));
        let seen: ListDiff<{ id: number; v: number }>[] = [];
        list.subscribe((_s, d) => (seen = [...d]));
        const start = list.getSnapshot();
        patchList(list, next, (o) => String(o.id));
        expect(list.getSnapshot()).toEqual(next);
        expect(applyDiffs(start, seen)).toEqual(next);
        expect(seen.some((d) => d.type === "reset")).toBe(false);
        // Unchanged lists make no notification at all.
        seen = [];
        patchList(list, next, (o) => String(o.id));
        expect(seen).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
