/**
 * The room list view model shows the room model's rules: favourites and
 * low priority in their tag order, a space's rooms in its child order, and
 * an upgraded room or space hidden once its successor is joined.
 */
import { describe, expect, it } from "vitest";
import { Rooms } from "@lattice/sdk/models/room/Rooms";
import { emptyParsedSync } from "@lattice/sdk/sync/validate/types";
import type { ParsedJoinedRoom } from "@lattice/sdk/sync/validate/types";
import type { ClientEventWithoutRoomId } from "@lattice/sdk/api/types/events";
import type { HttpApi } from "../sdk";
import { roomPreviewOf } from "../features/timeline/preview";
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

  it("follows the listbox pattern: arrows, Home and End move the active option; only Enter opens", () => {
    const rooms = new Rooms({ userId: ME, http: noHttp });
    handle(rooms, { "!a:hs": room("Alpha"), "!b:hs": room("Bravo"), "!c:hs": room("Charlie") });
    const scope = new Scope();
    const vm = new RoomListViewModel(rooms, scope);
    const order = vm.items.getSnapshot().map((r) => r.roomId);
    expect(order).toHaveLength(3);
    vm.select(order[0] ?? null);
    const opened: Array<string | null> = [];
    const stop = vm.selected.subscribe(() => opened.push(vm.selected.getSnapshot()));
    vm.move(1);
    expect(vm.active.getSnapshot()).toBe(order[1]);
    vm.move(1);
    vm.move(1); // stays on the last
    expect(vm.active.getSnapshot()).toBe(order[2]);
    vm.moveToEdge("first");
    expect(vm.active.getSnapshot()).toBe(order[0]);
    vm.moveToEdge("last");
    vm.move(-1);
    expect(vm.active.getSnapshot()).toBe(order[1]);
    // Browsing opened nothing (so nothing was marked read): the open room is still the first.
    expect(opened).toEqual([]);
    expect(vm.selected.getSnapshot()).toBe(order[0]);
    vm.openActive();
    expect(vm.selected.getSnapshot()).toBe(order[1]);
    expect(opened).toEqual([order[1]]);
    stop();
    scope.end();
  });

  it("moves in the filtered list from the search box, and Enter opens the active match", () => {
    const rooms = new Rooms({ userId: ME, http: noHttp });
    handle(rooms, {
      "!a:hs": room("Design"),
      "!b:hs": room("Random"),
      "!c:hs": room("Design review"),
      "!d:hs": room("Designers"),
    });
    const scope = new Scope();
    const vm = new RoomListViewModel(rooms, scope);
    vm.select("!b:hs");
    vm.setSearch("design");
    const matches = vm.items.getSnapshot().map((r) => r.roomId);
    expect(matches).toHaveLength(3);
    expect(vm.activeInList()).toBe(null); // the open room is filtered out
    vm.move(1);
    expect(vm.active.getSnapshot()).toBe(matches[0]);
    vm.move(1);
    expect(vm.active.getSnapshot()).toBe(matches[1]);
    expect(vm.selected.getSnapshot()).toBe("!b:hs");
    vm.openActive();
    expect(vm.selected.getSnapshot()).toBe(matches[1]);
    // Enter with no active match opens the first match.
    vm.select(null);
    vm.setSearch("random");
    vm.active.set(null);
    vm.openActive();
    expect(vm.selected.getSnapshot()).toBe("!b:hs");
    scope.end();
  });

  it("previews the last message: an image, not a reaction after it; an edit as its edited text", () => {
    const rooms = new Rooms({ userId: ME, http: noHttp });
    const topic = ev("m.room.topic", { topic: "The room topic" }, "");
    const image = ev("m.room.message", { msgtype: "m.image", body: "cat.png", url: "mxc://hs/cat" });
    const text = ev("m.room.message", { msgtype: "m.text", body: "helo" });
    const reaction = (target: string) =>
      ev("m.reaction", { "m.relates_to": { rel_type: "m.annotation", event_id: target, key: "👍" } });
    const edit = ev("m.room.message", {
      msgtype: "m.text",
      body: "* hello",
      "m.new_content": { msgtype: "m.text", body: "hello" },
      "m.relates_to": { rel_type: "m.replace", event_id: text.event_id },
    });
    const timeline = (events: ClientEventWithoutRoomId[]) => ({ timeline: { events, limited: false } });
    handle(rooms, {
      "!img:hs": room("Pictures", { stateEvents: [topic], ...timeline([image, reaction(image.event_id)]) }),
      "!edit:hs": room("Typos", { stateEvents: [topic], ...timeline([text, edit]) }),
    });
    const scope = new Scope();
    const vm = new RoomListViewModel(rooms, scope);
    const preview = (id: string): string => {
      const snap = vm.items.getSnapshot().find((r) => r.roomId === id);
      if (snap === undefined) throw new Error(`no ${id}`);
      return roomPreviewOf(snap, (userId) => (userId === "@alice:hs" ? "Alice" : userId));
    };
    expect(preview("!img:hs")).toBe("Alice sent an image");
    expect(preview("!edit:hs")).toBe("hello");
    // A later reaction still leaves the image as the preview; the room is still recent (ordered by it).
    handle(rooms, { "!img:hs": { ...room("Pictures"), state: [], ...timeline([reaction(image.event_id)]) } });
    expect(preview("!img:hs")).toBe("Alice sent an image");
    scope.end();
  });
});
