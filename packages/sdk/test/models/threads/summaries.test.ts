/**
 * Bugs a real homeserver showed in the room model: thread summaries come
 * from the bundled m.thread aggregations of every page (/messages, /context,
 * /event, sync) and stay current as replies arrive, without counting a
 * reply twice; a redacted relation (reaction, edit, thread reply) never
 * becomes an item of the main timeline and its effect on the target goes;
 * the thread list is right on a server without /threads.
 */
import { describe, expect, it } from "vitest";
import type { ClientEventWithoutRoomId } from "../../../src/api/types/events";
import { MatrixError } from "../../../src/http/errors";
import { Rooms } from "../../../src/models/room/Rooms";
import { RoomThreads } from "../../../src/models/threads/RoomThreads";
import { ThreadList } from "../../../src/models/threads/ThreadList";
import { ThreadTimeline } from "../../../src/models/threads/ThreadTimeline";
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

const ROOM = "!s:hs";

function withBundle(event: ClientEventWithoutRoomId, count: number, latest: ClientEventWithoutRoomId) {
  return {
    ...event,
    unsigned: {
      "m.relations": { "m.thread": { count, current_user_participated: false, latest_event: latest } },
    },
  };
}

function roomOf(http: FakeHttp, events: ClientEventWithoutRoomId[], prevBatch = "p0") {
  const rooms = new Rooms({ userId: ME, http, scheduler: new FakeScheduler() });
  rooms.handle(batch({ [ROOM]: joined({ events, limited: true, prevBatch }) }));
  return { rooms, room: rooms.get(ROOM) };
}

describe("thread summaries from every page", () => {
  const r3 = threadReply("$r3", "$root", 30, BOB);
  const rootWith3 = withBundle(msg("$root", 10), 3, r3);

  it("reads the bundle of a root met by back-pagination, then counts a live reply once", async () => {
    const http = new FakeHttp().on(/\/messages$/, () => ({
      start: "p0",
      end: "p1",
      chunk: [msg("$old", 5), rootWith3],
    }));
    // Sync saw only the last reply (the root and two replies lie before the gap).
    const { rooms, room } = roomOf(http, [r3, msg("$live", 40)]);
    expect(room.threads.get("$root")?.replyCount).toBe(1);
    const window = room.openTimeline();
    await window.load();
    expect(room.threads.get("$root")).toMatchObject({ replyCount: 3 });
    expect(room.threads.get("$root")?.lastEvent?.event_id).toBe("$r3");
    // A live reply adds one; the bundle's own latest reply again adds none.
    rooms.handle(batch({ [ROOM]: joined({ events: [threadReply("$r4", "$root", 50, ALICE), r3] }) }));
    expect(room.threads.get("$root")).toMatchObject({ replyCount: 4 });
    expect(room.threads.get("$root")?.lastEvent?.event_id).toBe("$r4");
    window.dispose();
  });

  it("reads the bundle of a root reached by /context", async () => {
    const http = new FakeHttp().on(/\/context\//, () => ({
      event: rootWith3,
      events_before: [],
      events_after: [],
      start: "c0",
      end: "c1",
    }));
    const { room } = roomOf(http, [msg("$live", 40)]);
    const window = room.openTimeline();
    await window.load("$root");
    expect(room.threads.get("$root")?.replyCount).toBe(3);
    window.dispose();
  });

  it("keeps the newest bundle (by its latest reply), even with a lower count", () => {
    const threads = new RoomThreads(ME);
    const r2 = threadReply("$r2", "$root", 20, BOB);
    threads.addEvents([rootWith3]);
    threads.addEvents([withBundle(msg("$root", 10), 2, r2)]);
    expect(threads.get("$root")?.replyCount).toBe(3);
    const r5 = threadReply("$r5", "$root", 60, BOB);
    threads.addEvents([withBundle(msg("$root", 10), 2, r5)]);
    expect(threads.get("$root")?.replyCount).toBe(2);
    expect(threads.get("$root")?.lastEvent?.event_id).toBe("$r5");
  });

  it("drops a redacted reply from the count and the last reply", () => {
    const threads = new RoomThreads(ME);
    threads.addEvents([rootWith3]);
    threads.addEvents([redaction("$x", "$r3", 35)]);
    expect(threads.get("$root")?.replyCount).toBe(2);
    expect(threads.get("$root")?.lastEvent).toBeUndefined();
    const r4 = threadReply("$r4", "$root", 40, BOB);
    threads.addEvents([r4]);
    expect(threads.get("$root")?.replyCount).toBe(3);
    threads.addEvents([redaction("$y", "$r4", 45), r4]);
    expect(threads.get("$root")?.replyCount).toBe(2);
  });
});

describe("redacted relations in the main timeline", () => {
  const shown = (w: { items: { getSnapshot(): ReadonlyArray<{ eventId: string }> } }) =>
    w.items.getSnapshot().map((i) => i.eventId);
  const noHistory = () => new FakeHttp().on(/\/messages$/, () => ({ start: "p0", chunk: [] }));

  it("never shows a removed reaction, edit or thread reply, and takes back its effect", async () => {
    const { rooms, room } = roomOf(noHistory(), [
      msg("$m", 1, "original"),
      reaction("$re", "$m", "👍", 2),
      edit("$ed", "$m", 3, "changed"),
      msg("$root", 4),
      threadReply("$tr", "$root", 5),
    ]);
    const window = room.openTimeline();
    await window.load();
    expect(shown(window)).toEqual(["$m", "$root"]);
    expect(window.items.getSnapshot()[0]).toMatchObject({ edited: true, content: { body: "changed" } });
    expect(window.items.getSnapshot()[0]?.reactions.map((g) => g.count)).toEqual([1]);
    rooms.handle(
      batch({
        [ROOM]: joined({
          events: [redaction("$x1", "$re", 6, BOB), redaction("$x2", "$ed", 7), redaction("$x3", "$tr", 8)],
        }),
      }),
    );
    expect(shown(window)).toEqual(["$m", "$root"]);
    expect(window.items.getSnapshot()[0]).toMatchObject({ edited: false, content: { body: "original" } });
    expect(window.items.getSnapshot()[0]?.reactions).toEqual([]);
    window.dispose();
    // A timeline opened afresh from the room's kept (now redacted) events shows none of them either.
    const reopened = room.openTimeline();
    await reopened.load();
    expect(shown(reopened)).toEqual(["$m", "$root"]);
    reopened.dispose();
  });

  it("never shows a reaction that comes back from /messages already redacted", async () => {
    const removed = {
      event_id: "$gone",
      type: "m.reaction",
      sender: BOB,
      origin_server_ts: 2,
      content: {},
      unsigned: { redacted_because: redaction("$x", "$gone", 3, BOB) },
    };
    const http = new FakeHttp().on(/\/messages$/, () => ({ start: "p0", chunk: [removed, msg("$m", 1)] }));
    const { room } = roomOf(http, [msg("$live", 4)]);
    const window = room.openTimeline();
    await window.load();
    expect(shown(window)).toEqual(["$m", "$live"]);
    window.dispose();
  });
});

describe("the thread list without /threads", () => {
  it("fetches the roots of threads known only by replies, with their bundled counts, on the first page", async () => {
    const r3 = threadReply("$r3", "$root", 30, BOB);
    const http = new FakeHttp()
      .on(/\/messages$/, () => ({ start: "p0", chunk: [] }))
      .on(/\/event\//, (req) => {
        expect(req.path).toContain("%24root");
        return { ...withBundle(msg("$root", 10), 3, r3), room_id: ROOM };
      });
    const { room } = roomOf(http, [r3]);
    const list = new ThreadList({ room, http, scheduler: new FakeScheduler(), support: "experimental" });
    expect(await list.loadMore()).toBe(false);
    expect(http.count(/\/threads/)).toBe(0);
    expect(list.source).toBe("local");
    const [thread] = list.items.getSnapshot();
    expect(thread).toMatchObject({ rootId: "$root", replyCount: 3 });
    expect(thread?.root?.event_id).toBe("$root");
    // Asked once: a second page does not fetch it again.
    expect(http.count(/\/event\//)).toBe(1);
    list.dispose();
  });

  it("takes /context when /event is unrecognised, and waits for a support still being detected", async () => {
    const http = new FakeHttp()
      .on(/\/messages$/, () => ({ start: "p0", chunk: [] }))
      .on(/\/event\//, () => {
        throw new MatrixError({ errcode: "M_UNRECOGNIZED", error: "Unrecognized request", httpStatus: 404 });
      })
      .on(/\/context\//, () => ({ event: withBundle(msg("$root", 10), 2, threadReply("$r2", "$root", 20)) }));
    const { room } = roomOf(http, [threadReply("$r2", "$root", 20)]);
    const list = new ThreadList({
      room,
      http,
      scheduler: new FakeScheduler(),
      support: Promise.resolve("none"),
    });
    await list.loadMore();
    expect(http.count(/\/threads/)).toBe(0);
    expect(list.items.getSnapshot()[0]).toMatchObject({ rootId: "$root", replyCount: 2 });
    list.dispose();
  });
});

describe("an open thread timeline and the main timeline's back-pagination", () => {
  it("places a reply the main timeline met by scrolling back in time order", async () => {
    const older = threadReply("$r1", "$root", 15, BOB);
    const http = new FakeHttp()
      .on(/\/relations\//, () => ({ chunk: [threadReply("$r2", "$root", 20, BOB)] }))
      .on(/\/event\//, () => ({ ...msg("$root", 10), room_id: ROOM }))
      .on(/\/messages$/, () => ({ start: "p0", end: "p1", chunk: [older, msg("$root", 10)] }));
    const { room } = roomOf(http, [threadReply("$r2", "$root", 20, BOB), msg("$m", 30)]);
    const thread = new ThreadTimeline({ room, rootId: "$root", http, scheduler: new FakeScheduler() });
    await thread.load();
    const window = room.openTimeline();
    await window.load();
    const order = thread.items.getSnapshot().map((i) => i.eventId);
    expect(order.slice(order.indexOf("$r1"))).toEqual(["$r1", "$r2"]);
    thread.dispose();
    window.dispose();
  });
});
