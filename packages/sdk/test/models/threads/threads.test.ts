/**
 * Threads: server support from /versions (stable from v1.4, experimental
 * with MSC3440's flags, none otherwise); thread summaries from bundled
 * aggregations and live replies; the thread list from /threads (30 a page,
 * all or participated) with a local fallback when the endpoint is missing;
 * thread timelines from /relations with live replies.
 */
import { describe, expect, it } from "vitest";
import type { ClientEventWithoutRoomId } from "../../../src/api/types/events";
import { MatrixError } from "../../../src/http/errors";
import { Rooms } from "../../../src/models/room/Rooms";
import { RoomThreads } from "../../../src/models/threads/RoomThreads";
import { serverFeaturesOf } from "../../../src/sync/server-features";

const threadSupportOf = (versions: Parameters<typeof serverFeaturesOf>[0]) =>
  serverFeaturesOf(versions).threads;
import { ThreadList } from "../../../src/models/threads/ThreadList";
import { ThreadTimeline } from "../../../src/models/threads/ThreadTimeline";
import { FakeScheduler } from "../../support/fake-scheduler";
import { ALICE, BOB, FakeHttp, ME, batch, joined, msg, threadReply } from "../support/room-fixtures";

const ROOM = "!t:hs";

function root(
  id: string,
  ts: number,
  count: number,
  participated = false,
  latest?: ClientEventWithoutRoomId,
) {
  return {
    ...msg(id, ts),
    unsigned: {
      "m.relations": {
        "m.thread": {
          count,
          current_user_participated: participated,
          ...(latest ? { latest_event: latest } : {}),
        },
      },
    },
  };
}

function unrecognised(status: number, errcode = "M_UNRECOGNIZED") {
  return new MatrixError({ errcode, error: "Unrecognized request", httpStatus: status });
}

/** Roots fetched by the local thread list are not found here (these tests count replies only). */
function noRootFetch(http: FakeHttp): FakeHttp {
  return http.on(/\/(event|context)\//, () => {
    throw new MatrixError({ errcode: "M_NOT_FOUND", error: "Event not found", httpStatus: 404 });
  });
}

describe("thread support", () => {
  it("is stable from v1.4, experimental with MSC3440 flags, none otherwise", () => {
    expect(threadSupportOf({ versions: ["v1.1", "v1.4"] })).toBe("stable");
    expect(threadSupportOf({ versions: ["v1.12"] })).toBe("stable");
    expect(threadSupportOf({ versions: ["v2.0"] })).toBe("stable");
    expect(
      threadSupportOf({ versions: ["v1.3"], unstable_features: { "org.matrix.msc3440.stable": true } }),
    ).toBe("experimental");
    expect(threadSupportOf({ versions: ["v1.3"], unstable_features: { "org.matrix.msc3440": true } })).toBe(
      "experimental",
    );
    expect(threadSupportOf({ versions: ["v1.3"], unstable_features: { "org.matrix.msc3440": false } })).toBe(
      "none",
    );
    expect(threadSupportOf({ versions: ["r0.6.1", "v1.3"] })).toBe("none");
    expect(threadSupportOf(JSON.parse('{"versions": "v1.4", "unstable_features": null}') as never)).toBe(
      "none",
    );
    expect(threadSupportOf(undefined)).toBe("none");
  });
});

describe("RoomThreads", () => {
  it("builds a thread from a bundled summary and counts live replies once", () => {
    const threads = new RoomThreads(ME);
    const latest = threadReply("$r2", "$root", 20, BOB);
    threads.addEvents([root("$root", 10, 2, false, latest)]);
    expect(threads.get("$root")).toMatchObject({ rootId: "$root", replyCount: 2, participated: false });
    expect(threads.get("$root")?.lastEvent?.event_id).toBe("$r2");
    threads.addEvents([latest, threadReply("$r3", "$root", 30, ME), threadReply("$r3", "$root", 30, ME)]);
    expect(threads.get("$root")).toMatchObject({ replyCount: 3, participated: true });
    expect(threads.get("$root")?.lastEvent?.event_id).toBe("$r3");
  });

  it("discovers threads from replies alone and orders the list by last activity", () => {
    const threads = new RoomThreads(ME);
    threads.addEvents([threadReply("$a1", "$A", 5), threadReply("$b1", "$B", 6)]);
    expect(threads.list.getSnapshot().map((t) => t.rootId)).toEqual(["$B", "$A"]);
    threads.addEvents([threadReply("$a2", "$A", 9)]);
    expect(threads.list.getSnapshot().map((t) => t.rootId)).toEqual(["$A", "$B"]);
    expect(threads.get("$A")?.replyCount).toBe(2);
    expect(threads.get("$A")?.root).toBeUndefined();
    threads.addEvents([msg("$A", 1)]);
    expect(threads.get("$A")?.root?.event_id).toBe("$A");
  });
});

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

describe("ThreadList", () => {
  it("pages /threads 30 at a time with the include filter", async () => {
    const http = new FakeHttp().on(/\/threads$/, (req) =>
      req.query?.["from"] === undefined
        ? { chunk: [root("$X", 50, 4, true)], next_batch: "n1" }
        : { chunk: [root("$Y", 40, 1)] },
    );
    const room = roomWithThreads(http);
    const list = new ThreadList({ room, http, scheduler: new FakeScheduler(), include: "participated" });
    expect(await list.loadMore()).toBe(true);
    expect(http.requests[0]?.query).toMatchObject({ include: "participated", limit: 30 });
    expect(await list.loadMore()).toBe(false);
    expect(http.requests[1]?.query).toMatchObject({ from: "n1" });
    expect(list.source).toBe("server");
    // Participated: $X (bundled) and $A (the user replied), not $B or $Y.
    expect(list.items.getSnapshot().map((t) => t.rootId)).toEqual(["$X", "$A"]);
    expect(room.threads.get("$X")?.replyCount).toBe(4);
    list.dispose();
  });

  it.each([
    [404, "M_UNRECOGNIZED"],
    [405, "M_UNRECOGNIZED"],
    [400, "M_UNRECOGNIZED"],
  ])("builds threads from the room's history when /threads answers %i %s", async (status, errcode) => {
    const older = [threadReply("$c1", "$C", 0.5, BOB), msg("$C", 0.1)];
    const http = noRootFetch(new FakeHttp())
      .on(/\/threads$/, () => {
        throw unrecognised(status, errcode);
      })
      .on(/\/messages$/, () => ({ start: "s", chunk: older }));
    const room = roomWithThreads(http);
    const list = new ThreadList({ room, http, scheduler: new FakeScheduler() });
    expect(await list.loadMore()).toBe(false);
    expect(list.source).toBe("local");
    expect(list.items.getSnapshot().map((t) => t.rootId)).toEqual(["$B", "$A", "$C"]);
    expect(room.threads.get("$C")?.root?.event_id).toBe("$C");
  });

  it("does not hide other errors behind the fallback", async () => {
    const http = new FakeHttp().on(/\/threads$/, () => {
      throw new MatrixError({ errcode: "M_FORBIDDEN", error: "no", httpStatus: 403 });
    });
    const list = new ThreadList({ room: roomWithThreads(http), http, scheduler: new FakeScheduler() });
    await expect(list.loadMore()).rejects.toThrow("M_FORBIDDEN");
  });

  it("goes straight to the local list when the server has no thread support", async () => {
    const http = noRootFetch(new FakeHttp()).on(/\/messages$/, () => ({ start: "s", chunk: [] }));
    const list = new ThreadList({
      room: roomWithThreads(http),
      http,
      scheduler: new FakeScheduler(),
      support: "none",
    });
    await list.loadMore();
    expect(http.count(/threads/)).toBe(0);
    expect(list.items.getSnapshot().length).toBe(2);
  });
});

describe("ThreadTimeline", () => {
  it("loads the root and replies from /relations (m.thread, 30 a page) and follows live replies", async () => {
    const http = new FakeHttp().on(/\/relations\//, (req) =>
      req.query?.["from"] === undefined
        ? { chunk: [threadReply("$a3", "$A", 7), threadReply("$a2", "$A", 6)], next_batch: "r1" }
        : { chunk: [threadReply("$a1", "$A", 2, ME)] },
    );
    const room = roomWithThreads(http);
    const t = new ThreadTimeline({ room, rootId: "$A", http, scheduler: new FakeScheduler() });
    await t.load();
    expect(http.requests[0]?.path).toContain("/relations/%24A/m.thread");
    expect(http.requests[0]?.query).toMatchObject({ dir: "b", limit: 30 });
    expect(t.items.getSnapshot().map((i) => i.eventId)).toEqual(["$A", "$a2", "$a3"]);
    expect(await t.paginate()).toBe(false);
    expect(t.items.getSnapshot().map((i) => i.eventId)).toEqual(["$A", "$a1", "$a2", "$a3"]);
    room.applyJoined(joined({ events: [threadReply("$a4", "$A", 9), threadReply("$b2", "$B", 10)] }));
    expect(t.items.getSnapshot().map((i) => i.eventId)).toEqual(["$A", "$a1", "$a2", "$a3", "$a4"]);
    t.dispose();
  });

  it("shows the replies the room has seen when /relations is missing", async () => {
    const http = new FakeHttp().on(/\/relations\//, () => {
      throw unrecognised(404);
    });
    const room = roomWithThreads(http);
    const t = new ThreadTimeline({ room, rootId: "$B", http, scheduler: new FakeScheduler() });
    await t.load();
    expect(t.items.getSnapshot().map((i) => i.eventId)).toEqual(["$B", "$b1"]);
  });
});

describe("threaded receipts and thread relations", () => {
  it("records the user's threaded read receipt on the thread and leaves main and others' receipts out", () => {
    const http = new FakeHttp();
    const room = roomWithThreads(http);
    room.applyJoined(
      joined({
        ephemeral: [
          {
            type: "m.receipt",
            content: {
              $a1: { "m.read": { [ME]: { ts: 1, thread_id: "$A" }, [ALICE]: { ts: 1, thread_id: "$B" } } },
              $B: { "m.read": { [ME]: { ts: 1, thread_id: "main" } } },
            },
          },
        ],
      }),
    );
    expect(room.threads.get("$A")?.readUpTo).toBe("$a1");
    expect(room.threads.get("$B")?.readUpTo).toBeUndefined();
    expect(room.getSnapshot().receipts.of(ME, "m.read", "main")?.eventId).toBe("$B");
  });

  it("applies live edits and redactions of thread events to an open thread timeline", async () => {
    const http = new FakeHttp().on(/\/relations\//, () => ({ chunk: [] }));
    const room = roomWithThreads(http);
    const t = new ThreadTimeline({ room, rootId: "$A", http, scheduler: new FakeScheduler() });
    await t.load();
    room.applyJoined(joined({ events: [threadReply("$a2", "$A", 5, ME)] }));
    room.applyJoined(
      joined({
        events: [
          {
            event_id: "$edit",
            type: "m.room.message",
            sender: ME,
            origin_server_ts: 6,
            content: {
              msgtype: "m.text",
              body: "* fixed",
              "m.new_content": { msgtype: "m.text", body: "fixed" },
              "m.relates_to": { rel_type: "m.replace", event_id: "$a2" },
            },
          },
          {
            event_id: "$red",
            type: "m.room.redaction",
            sender: ALICE,
            origin_server_ts: 7,
            content: { redacts: "$A" },
          },
          {
            event_id: "$elsewhere",
            type: "m.room.redaction",
            sender: ALICE,
            origin_server_ts: 8,
            content: { redacts: "$zz" },
          },
        ],
      }),
    );
    const items = t.items.getSnapshot();
    expect(items.map((i) => i.eventId)).toEqual(["$A", "$a2"]);
    expect(items[1]?.content["body"]).toBe("fixed");
    expect(items[0]?.redacted).toBe(true);
    t.dispose();
  });
});
