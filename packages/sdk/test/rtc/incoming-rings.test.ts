/**
 * The callee's view of rings (IncomingRings): which rings ring for us, and
 * each way one stops (lifetime, our join on any device, our decline on any
 * device, the ringer leaving) while someone else's answer or decline does
 * not; the deprecated twin of a ring rings once.
 */
import { describe, expect, it } from "vitest";
import { IncomingRings } from "../../src/rtc/ring";
import type { Ring } from "../../src/rtc/ring";
import { FakeScheduler } from "../support/fake-scheduler";

const ME = "@me:hs";
/** The fake scheduler's clock at start. */
const T0 = new FakeScheduler().now();
const ringOf = (over: Partial<Ring> = {}): Ring => ({
  eventId: "$ring",
  sender: "@caller:hs",
  type: "ring",
  userIds: [ME],
  room: false,
  membershipEventId: "$m",
  callIntent: "video",
  senderTs: T0,
  expiresAt: T0 + 30_000,
  deprecated: false,
  ...over,
});
const ids = (rings: IncomingRings): string[] => rings.ringing.getSnapshot().map((r) => r.ring.eventId);

function setup(): { scheduler: FakeScheduler; rings: IncomingRings } {
  const scheduler = new FakeScheduler();
  return { scheduler, rings: new IncomingRings(ME, scheduler) };
}

describe("IncomingRings", () => {
  it("rings for a ring that mentions us or the room, until its lifetime passes", async () => {
    const { scheduler, rings } = setup();
    expect(rings.receive("!r", ringOf())).toBe(true);
    expect(rings.receive("!r", ringOf({ eventId: "$room", userIds: [], room: true }))).toBe(true);
    expect(ids(rings)).toEqual(["$ring", "$room"]);
    expect(rings.ringing.getSnapshot()[0]?.roomId).toBe("!r");
    await scheduler.advance(29_999);
    expect(ids(rings)).toEqual(["$ring", "$room"]);
    await scheduler.advance(1);
    expect(ids(rings)).toEqual([]);
    // A second copy of a ring that stopped does not start again.
    expect(rings.receive("!r", ringOf({ expiresAt: T0 + 90_000 }))).toBe(false);
  });

  it("does not ring for others, for notifications, for our own rings, or past the lifetime", async () => {
    const { scheduler, rings } = setup();
    expect(rings.receive("!r", ringOf({ userIds: ["@other:hs"] }))).toBe(false);
    expect(rings.receive("!r", ringOf({ eventId: "$n", type: "notification" }))).toBe(false);
    expect(rings.receive("!r", ringOf({ eventId: "$own", sender: ME }))).toBe(false);
    await scheduler.advance(30_000);
    expect(rings.receive("!r", ringOf({ eventId: "$late" }))).toBe(false);
    expect(ids(rings)).toEqual([]);
  });

  it("stops when we decline on any device, not when someone else declines", () => {
    const { rings } = setup();
    rings.receive("!r", ringOf());
    rings.declined("$ring", "@other:hs");
    expect(ids(rings)).toEqual(["$ring"]);
    rings.declined("$ring", ME);
    expect(ids(rings)).toEqual([]);
  });

  it("stops when we are in the room's call (joined elsewhere) or the ringer is not", () => {
    const { rings } = setup();
    rings.receive("!r", ringOf());
    rings.receive("!s", ringOf({ eventId: "$s" }));
    rings.membersChanged("!r", new Set(["@caller:hs", "@other:hs"]));
    expect(ids(rings)).toEqual(["$ring", "$s"]);
    rings.membersChanged("!r", new Set(["@caller:hs", ME]));
    expect(ids(rings)).toEqual(["$s"]);
    rings.membersChanged("!s", new Set(["@other:hs"]));
    expect(ids(rings)).toEqual([]);
  });

  it("rings once for a ring sent in both forms, the RTC form kept", () => {
    const { rings } = setup();
    expect(rings.receive("!r", ringOf({ eventId: "$old", deprecated: true }))).toBe(true);
    expect(rings.receive("!r", ringOf({ eventId: "$new" }))).toBe(true);
    expect(ids(rings)).toEqual(["$new"]);
    // The next ring (both forms again) rings anew, once.
    expect(rings.receive("!r", ringOf({ eventId: "$new2" }))).toBe(true);
    expect(rings.receive("!r", ringOf({ eventId: "$old2", deprecated: true }))).toBe(false);
    expect(ids(rings)).toEqual(["$new", "$new2"]);
  });

  it("does not ring for the second form of a ring declined before it came", () => {
    const { rings } = setup();
    rings.receive("!r", ringOf({ eventId: "$new" }));
    rings.declined("$new", ME);
    expect(rings.receive("!r", ringOf({ eventId: "$old", deprecated: true }))).toBe(false);
    expect(ids(rings)).toEqual([]);
  });

  it("stop() ends a ring here, and dispose() its timer", () => {
    const { scheduler, rings } = setup();
    rings.receive("!r", ringOf());
    rings.stop("$ring");
    expect(ids(rings)).toEqual([]);
    rings.receive("!r", ringOf({ eventId: "$2" }));
    rings.dispose();
    expect(scheduler.pending()).toEqual([]);
  });
});
