/**
 * The room list view model shows the room model's rules: favourites and
 * low priority in their tag order, a space's rooms in its child order, and
 * an upgraded room or space hidden once its successor is joined.
 */
import { describe, expect, it } from "vitest";
import { Rooms } from "../../../sdk/src/models/room/Rooms";
import { emptyParsedSync } from "../../../sdk/src/sync/validate/types";
import type { ParsedJoinedRoom } from "../../../sdk/src/sync/validate/types";
import type { ClientEventWithoutRoomId } from "../../../sdk/src/api/types/events";
import type { HttpApi } from "../sdk";
import { RoomListViewModel } from "./RoomListViewModel";
import { Scope } from "./Scope";

const ME = "@me:hs";
const noHttp: HttpApi = { request: () => Promise.reject(new Error("no network in this test")) };
let n = 0;

function ev(
  type: string,
  content: Record<string, unknown>,
  stateKey?: string,
  ts = ++n,
): ClientEventWithoutRoomId {
  return {
    event_id: `$e${++n}`,
    type,
    sender: "@alice:hs",
    origin_server_ts: ts,
    content,
    ...(stateKey !== undefined ? { state_key: stateKey } : {}),
  };
}

function room(
  name: string,
  extra: Partial<ParsedJoinedRoom> & { stateEvents?: ClientEventWithoutRoomId[] } = {},
) {
  const { stateEvents = [], ...rest } = extra;
  return {
    state: [ev("m.room.name", { name }, ""), ...stateEvents],
    timeline: { events: [ev("m.room.message", { msgtype: "m.text", body: name })], limited: false },
    ephemeral: [],
    accountData: [],
    ...rest,
  } satisfies ParsedJoinedRoom;
}

function handle(rooms: Rooms, join: Record<string, ParsedJoinedRoom>): void {
  const base = emptyParsedSync(`s${++n}`);
  rooms.handle({
    ...base,
    rooms: { ...base.rooms, join: new Map(Object.entries(join)) },
    fromCache: false,
    catchingUp: false,
  });
}

const tag = (name: string, order?: number) => [
  { type: "m.tag", content: { tags: { [name]: order === undefined ? {} : { order } } } },
];

describe("RoomListViewModel", () => {
  it("lists favourites and low priority by tag order, then name; the rest by recent activity", () => {
    const rooms = new Rooms({ userId: ME, http: noHttp });
    handle(rooms, {
      "!c:hs": room("Charlie", { accountData: tag("m.favourite", 0.9) }),
      "!a:hs": room("Alpha", { accountData: tag("m.favourite") }),
      "!b:hs": room("Bravo", { accountData: tag("m.favourite", 0.1) }),
      "!l:hs": room("Low", { accountData: tag("m.lowpriority", 0.5) }),
      "!k:hs": room("Kilo", { accountData: tag("m.lowpriority", 0.2) }),
    });
    const scope = new Scope();
    const vm = new RoomListViewModel(rooms, scope);
    const ids = () => vm.items.getSnapshot().map((r) => r.roomId);
    vm.setSection("favourites");
    expect(ids()).toEqual(["!b:hs", "!c:hs", "!a:hs"]);
    vm.setSection("low");
    expect(ids()).toEqual(["!k:hs", "!l:hs"]);
    vm.setSection("all");
    expect(ids()[0]).toBe("!k:hs");
    scope.end();
  });

  it("lists a space's rooms in the space's child order", () => {
    const rooms = new Rooms({ userId: ME, http: noHttp });
    const child = (id: string, content: Record<string, unknown>, ts: number) =>
      ev("m.space.child", { via: ["hs"], ...content }, id, ts);
    handle(rooms, {
      "!s:hs": room("Space", {
        stateEvents: [
          ev("m.room.create", { type: "m.space" }, ""),
          child("!x:hs", {}, 5),
          child("!y:hs", { order: "a" }, 9),
          child("!z:hs", {}, 1),
        ],
      }),
      "!x:hs": room("X"),
      "!y:hs": room("Y"),
      "!z:hs": room("Z"),
    });
    const scope = new Scope();
    const vm = new RoomListViewModel(rooms, scope);
    vm.setSpace("!s:hs");
    expect(vm.items.getSnapshot().map((r) => r.roomId)).toEqual(["!y:hs", "!z:hs", "!x:hs"]);
    scope.end();
  });

  it("hides an upgraded room and space once the successor is joined", () => {
    const rooms = new Rooms({ userId: ME, http: noHttp });
    const tombstone = (to: string) => ev("m.room.tombstone", { body: "replaced", replacement_room: to }, "");
    handle(rooms, {
      "!old:hs": room("Old", { stateEvents: [tombstone("!new:hs")] }),
      "!oldspace:hs": room("Old space", {
        stateEvents: [ev("m.room.create", { type: "m.space" }, ""), tombstone("!newspace:hs")],
      }),
    });
    const scope = new Scope();
    const vm = new RoomListViewModel(rooms, scope);
    expect(vm.items.getSnapshot().map((r) => r.roomId)).toEqual(["!old:hs"]);
    expect(vm.spaces.getSnapshot().map((s) => s.roomId)).toEqual(["!oldspace:hs"]);
    handle(rooms, {
      "!new:hs": room("New", {
        stateEvents: [ev("m.room.create", { predecessor: { room_id: "!old:hs" } }, "")],
      }),
      "!newspace:hs": room("New space", {
        stateEvents: [ev("m.room.create", { type: "m.space", predecessor: { room_id: "!oldspace:hs" } }, "")],
      }),
    });
    expect(vm.items.getSnapshot().map((r) => r.roomId)).toEqual(["!new:hs"]);
    expect(vm.spaces.getSnapshot().map((s) => s.roomId)).toEqual(["!newspace:hs"]);
    expect(rooms.find("!new:hs")?.getSnapshot().predecessor?.roomId).toBe("!old:hs");
    scope.end();
  });
});
