/**
 * Room list rules found against a real homeserver: an upgraded room is
 * hidden once its successor is joined and the successor links back (with
 * the SPEC §5 version marker rule on MSC3946 predecessors); favourites and
 * low priority sort by tag `order`, then name; space children sort by
 * `order` (valid strings only, by code unit), then the child event's
 * timestamp, then room id.
 */
import { describe, expect, it } from "vitest";
import {
  compareByTagOrder,
  orderSpaceChildren,
  spaceChildOrderOf,
} from "../../../src/models/room-list/orders";
import { favouritesFilter, spaceFilter } from "../../../src/models/room-list/filters";
import { RoomListService } from "../../../src/models/room-list/RoomListService";
import { Rooms } from "../../../src/models/room/Rooms";
import { emptyParsedSync } from "../../../src/sync/validate/types";
import { ALICE, FakeHttp, ME, batch, joined, member, msg, state } from "../support/room-fixtures";

const ids = (list: RoomListService): string[] => list.items.getSnapshot().map((r) => r.roomId);
const named = (name: string, ts = 1) => state("m.room.name", "", { name }, ALICE, ts);

describe("room upgrades in the room list", () => {
  function upgraded(): Rooms {
    const rooms = new Rooms({ userId: ME, http: new FakeHttp() });
    rooms.handle(
      batch({
        "!old:hs": joined({
          state: [
            state("m.room.create", "", { room_version: "10", creator: ALICE }),
            member(ME, "join"),
            named("Old"),
          ],
          events: [
            msg("$o", 10),
            state(
              "m.room.tombstone",
              "",
              { body: "This room has been replaced", replacement_room: "!new:hs" },
              ALICE,
              20,
            ),
          ],
        }),
      }),
    );
    return rooms;
  }

  const joinNew = (rooms: Rooms, createContent: Record<string, unknown>): void =>
    rooms.handle(
      batch({
        "!new:hs": joined({
          state: [state("m.room.create", "", createContent), member(ME, "join"), named("New")],
          events: [msg("$n", 30)],
        }),
      }),
    );

  it("keeps the old room until the successor is joined, then lists only the successor", () => {
    const rooms = upgraded();
    const list = new RoomListService(rooms);
    expect(ids(list)).toEqual(["!old:hs"]);
    expect(rooms.find("!old:hs")?.getSnapshot().tombstone).toEqual({
      replacementRoom: "!new:hs",
      body: "This room has been replaced",
      sender: ALICE,
    });
    joinNew(rooms, { room_version: "11", predecessor: { room_id: "!old:hs", event_id: "$tomb" } });
    expect(ids(list)).toEqual(["!new:hs"]);
    expect(rooms.find("!new:hs")?.getSnapshot().predecessor).toEqual({
      roomId: "!old:hs",
      eventId: "$tomb",
      source: "create",
    });
  });

  it("shows the old room again when the successor is left", () => {
    const rooms = upgraded();
    const list = new RoomListService(rooms);
    joinNew(rooms, { room_version: "11", predecessor: { room_id: "!old:hs" } });
    const left = emptyParsedSync("s9");
    left.rooms.leave.set("!new:hs", { state: [], timeline: { events: [], limited: false }, accountData: [] });
    rooms.handle({ ...left, fromCache: false, catchingUp: false });
    expect(ids(list)).toEqual(["!old:hs"]);
  });

  it("moves the old room out and back in without a rebuild, when only the successor changed", () => {
    const rooms = upgraded();
    // Never rebuild: each batch changes one room, and the list must revisit the old room by itself.
    const list = new RoomListService(rooms, { rebuildRatio: 1 });
    const resets: number[] = [];
    list.items.subscribe((_snapshot, diffs) => {
      if (diffs.some((d) => d.type === "reset")) resets.push(1);
    });
    joinNew(rooms, { room_version: "11", predecessor: { room_id: "!old:hs" } });
    expect(ids(list)).toEqual(["!new:hs"]);
    const left = emptyParsedSync("s9");
    left.rooms.leave.set("!new:hs", { state: [], timeline: { events: [], limited: false }, accountData: [] });
    rooms.handle({ ...left, fromCache: false, catchingUp: false });
    expect(ids(list)).toEqual(["!old:hs"]);
    expect(resets).toEqual([]);
  });

  it("reads a predecessor without event_id (room versions that dropped it)", () => {
    const rooms = upgraded();
    joinNew(rooms, { room_version: "12", predecessor: { room_id: "!old:hs" } });
    expect(rooms.find("!new:hs")?.getSnapshot().predecessor).toEqual({ roomId: "!old:hs", source: "create" });
  });

  it("honours an MSC3946 predecessor only from a creator (SPEC §5 version markers)", () => {
    const rooms = new Rooms({ userId: ME, http: new FakeHttp() });
    const dynamic = (sender: string) =>
      state(
        "org.matrix.msc3946.room_predecessor",
        "",
        { predecessor_room_id: "!older:hs", last_known_event_id: "$last" },
        sender,
        5,
      );
    rooms.handle(
      batch({
        "!a:hs": joined({
          state: [state("m.room.create", "", { room_version: "11" }, ALICE), dynamic(ALICE)],
        }),
        "!b:hs": joined({
          state: [state("m.room.create", "", { room_version: "11" }, ALICE), dynamic("@mod:hs")],
        }),
      }),
    );
    expect(rooms.find("!a:hs")?.getSnapshot().predecessor).toEqual({
      roomId: "!older:hs",
      eventId: "$last",
      source: "msc3946",
    });
    expect(rooms.find("!b:hs")?.getSnapshot().predecessor).toBeUndefined();
  });

  it("ignores a tombstone whose replacement is not a room id", () => {
    const rooms = new Rooms({ userId: ME, http: new FakeHttp() });
    rooms.handle(
      batch({ "!r:hs": joined({ state: [state("m.room.tombstone", "", { replacement_room: "" })] }) }),
    );
    expect(rooms.find("!r:hs")?.getSnapshot().tombstone).toBeUndefined();
  });
});

describe("tag order", () => {
  function tagged(): Rooms {
    const rooms = new Rooms({ userId: ME, http: new FakeHttp() });
    const fav = (order?: unknown) => [
      { type: "m.tag", content: { tags: { "m.favourite": order === undefined ? {} : { order } } } },
    ];
    rooms.handle(
      batch({
        "!z:hs": joined({ state: [named("Zulu")], events: [msg("$z", 50)], accountData: fav(0.2) }),
        "!y:hs": joined({ state: [named("Yankee")], events: [msg("$y", 40)], accountData: fav(0.1) }),
        "!b:hs": joined({ state: [named("bravo")], events: [msg("$b", 90)], accountData: fav() }),
        "!a:hs": joined({ state: [named("Alpha")], events: [msg("$a", 10)], accountData: fav() }),
        "!x:hs": joined({ state: [named("Xray")], events: [msg("$x", 99)], accountData: fav(7) }),
      }),
    );
    return rooms;
  }

  it("sorts favourites by order, missing (or out of range) orders after, then by name", () => {
    const list = new RoomListService(tagged(), { filter: favouritesFilter, sort: { tag: "m.favourite" } });
    expect(ids(list)).toEqual(["!y:hs", "!z:hs", "!a:hs", "!b:hs", "!x:hs"]);
  });

  it("moves a room when its order changes", () => {
    const rooms = tagged();
    const list = new RoomListService(rooms, { filter: favouritesFilter, sort: { tag: "m.favourite" } });
    rooms.handle(
      batch({
        "!b:hs": joined({
          accountData: [{ type: "m.tag", content: { tags: { "m.favourite": { order: 0.05 } } } }],
        }),
      }),
    );
    expect(ids(list)).toEqual(["!b:hs", "!y:hs", "!z:hs", "!a:hs", "!x:hs"]);
  });

  it("breaks equal orders by name, then room id", () => {
    const at = (roomId: string, name: string) => ({
      roomId,
      name: { name },
      tags: new Map([["m.lowpriority", { order: 0.5 }]]),
    });
    const cmp = compareByTagOrder("m.lowpriority");
    expect(cmp(at("!1:hs", "beta"), at("!2:hs", "Alpha"))).toBeGreaterThan(0);
    expect(cmp(at("!1:hs", "same"), at("!2:hs", "same"))).toBeLessThan(0);
  });
});

describe("space child order", () => {
  it("accepts only 1-50 printable ASCII characters as an order", () => {
    expect(spaceChildOrderOf({ order: "a" })).toBe("a");
    expect(spaceChildOrderOf({ order: "" })).toBeUndefined();
    expect(spaceChildOrderOf({ order: "x".repeat(51) })).toBeUndefined();
    expect(spaceChildOrderOf({ order: "caf\u00e9" })).toBeUndefined();
    expect(spaceChildOrderOf({ order: "tab\there" })).toBeUndefined();
    expect(spaceChildOrderOf({ order: 3 })).toBeUndefined();
  });

  it("orders by order (code units), then the child event's timestamp, then room id", () => {
    const child = (content: Record<string, unknown>, ts: number) => ({
      content: { via: ["hs"], ...content },
      origin_server_ts: ts,
    });
    const entries = new Map([
      ["!late:hs", child({}, 30)],
      ["!early:hs", child({}, 10)],
      ["!tie-b:hs", child({}, 20)],
      ["!tie-a:hs", child({}, 20)],
      ["!upper:hs", child({ order: "B" }, 99)],
      ["!lower:hs", child({ order: "a" }, 1)],
      ["!bad:hs", child({ order: "\u00e9" }, 5)],
      ["!gone:hs", { content: { via: [] }, origin_server_ts: 1 }],
    ]);
    // "B" (0x42) sorts before "a" (0x61) by code unit, unlike a locale compare.
    expect(orderSpaceChildren(entries)).toEqual([
      "!upper:hs",
      "!lower:hs",
      "!bad:hs",
      "!early:hs",
      "!tie-a:hs",
      "!tie-b:hs",
      "!late:hs",
    ]);
  });

  it("lists a space's rooms in its child order", () => {
    const rooms = new Rooms({ userId: ME, http: new FakeHttp() });
    rooms.handle(
      batch({
        "!space:hs": joined({
          state: [
            state("m.room.create", "", { type: "m.space" }),
            state("m.space.child", "!c:hs", { via: ["hs"] }, ALICE, 3),
            state("m.space.child", "!b:hs", { via: ["hs"], order: "2" }, ALICE, 9),
            state("m.space.child", "!a:hs", { via: ["hs"] }, ALICE, 1),
          ],
        }),
        "!a:hs": joined({ events: [msg("$a", 10)] }),
        "!b:hs": joined({ events: [msg("$b", 20)] }),
        "!c:hs": joined({ events: [msg("$c", 30)] }),
      }),
    );
    const list = new RoomListService(rooms, {
      filter: spaceFilter("!space:hs"),
      sort: { space: "!space:hs" },
    });
    expect(ids(list)).toEqual(["!b:hs", "!a:hs", "!c:hs"]);
    rooms.handle(
      batch({
        "!space:hs": joined({
          events: [state("m.space.child", "!c:hs", { via: ["hs"], order: "1" }, ALICE, 40)],
        }),
      }),
    );
    expect(ids(list)).toEqual(["!c:hs", "!b:hs", "!a:hs"]);
  });
});
