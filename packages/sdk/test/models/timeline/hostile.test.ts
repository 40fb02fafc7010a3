/**
 * Hostile or broken answers: whatever JSON /messages, /context,
 * timestamp_to_event, /threads or /relations return, timelines keep only
 * well-formed events and fail with a typed error or not at all, never with
 * a TypeError from reading a bad shape.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ModelError } from "../../../src/models/errors";
import { roomVersionRules } from "../../../src/models/room-versions";
import { Rooms } from "../../../src/models/room/Rooms";
import { ThreadList } from "../../../src/models/threads/ThreadList";
import { ThreadTimeline } from "../../../src/models/threads/ThreadTimeline";
import { TimelineSet } from "../../../src/models/timeline/TimelineSet";
import { isUsableEvent } from "../../../src/models/timeline/validate";
import { FakeScheduler } from "../../support/fake-scheduler";
import { FakeHttp, ME, batch, joined, msg } from "../support/room-fixtures";

const eventLike = fc.record(
  {
    event_id: fc.oneof(fc.string(), fc.constant("__proto__"), fc.integer()),
    type: fc.oneof(fc.constant("m.room.message"), fc.constant("m.room.redaction"), fc.string()),
    sender: fc.oneof(fc.constant("@a:hs"), fc.integer()),
    origin_server_ts: fc.oneof(fc.integer(), fc.string(), fc.double()),
    content: fc.oneof(fc.object(), fc.constant(null), fc.string()),
    state_key: fc.oneof(fc.string(), fc.integer()),
    unsigned: fc.oneof(fc.object(), fc.constant(null)),
  },
  { requiredKeys: [] },
);
const hostile = fc.oneof(
  fc.constant(null),
  fc.string(),
  fc.array(fc.anything()),
  fc.record(
    {
      chunk: fc.oneof(fc.array(fc.oneof(eventLike, fc.anything())), fc.anything()),
      start: fc.oneof(fc.string(), fc.anything()),
      end: fc.oneof(fc.string(), fc.anything()),
      next_batch: fc.oneof(fc.string(), fc.anything()),
      event: fc.oneof(eventLike, fc.anything()),
      events_before: fc.oneof(fc.array(eventLike), fc.anything()),
      events_after: fc.oneof(fc.array(eventLike), fc.anything()),
      event_id: fc.oneof(fc.string(), fc.anything()),
    },
    { requiredKeys: [] },
  ),
);

function expectTyped(error: unknown): void {
  expect(error).not.toBeInstanceOf(TypeError);
  expect(error).not.toBeInstanceOf(RangeError);
}

describe("hostile answers", () => {
  it("never break a TimelineSet", async () => {
    await fc.assert(
      fc.asyncProperty(hostile, async (answer) => {
        const http = new FakeHttp().on(/./, () => answer);
        const set = new TimelineSet(
          { roomId: "!r:hs", http, scheduler: new FakeScheduler(), rules: () => roomVersionRules("10") },
          { events: [msg("$seed", 1)], backToken: "t" },
        );
        for (const run of [
          () => set.paginate(set.live, "b"),
          () => set.jumpToEvent("$x"),
          () => set.jumpToDate(5),
          () => set.loadLatest(),
        ]) {
          try {
            await run();
          } catch (error) {
            expectTyped(error);
            if (!(error instanceof ModelError)) throw error;
          }
        }
        for (const e of set.live.events) expect(isUsableEvent(e)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it("never break thread lists and thread timelines", async () => {
    await fc.assert(
      fc.asyncProperty(hostile, async (answer) => {
        const http = new FakeHttp().on(/./, () => answer);
        const rooms = new Rooms({ userId: ME, http, scheduler: new FakeScheduler() });
        rooms.handle(batch({ "!r:hs": joined({ events: [msg("$root", 1)] }) }));
        const room = rooms.get("!r:hs");
        const list = new ThreadList({ room, http, scheduler: new FakeScheduler() });
        await list.loadMore();
        const timeline = new ThreadTimeline({ room, rootId: "$root", http, scheduler: new FakeScheduler() });
        await timeline.load();
        for (const t of list.items.getSnapshot()) expect(typeof t.rootId).toBe("string");
        for (const i of timeline.items.getSnapshot()) expect(isUsableEvent(i.event)).toBe(true);
        list.dispose();
        timeline.dispose();
      }),
      { numRuns: 150 },
    );
  });
});
