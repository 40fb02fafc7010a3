/**
 * Pure parts of the rooms domain: pagination boundaries, the redaction
 * algorithm per room version, power level resolution and filters.
 */
import { describe, expect, it } from "vitest";
import type { StoredEvent } from "../../src/core/events";
import { eventMatches, parseEventFilter } from "../../src/rooms/filter";
import { paginate } from "../../src/rooms/paginate";
import { PowerLevels } from "../../src/rooms/power";
import { Room } from "../../src/rooms/room";
import { redactContent } from "../../src/rooms/versions";

function roomWith(count: number): Room {
  const room = new Room("!r:x", "10");
  let stream = 0;
  const add = (ev: Partial<StoredEvent>): void => {
    stream += 2; // gaps: other rooms share the stream
    room.append({
      event_id: `$${stream}`,
      room_id: room.roomId,
      sender: "@a:x",
      origin_server_ts: stream,
      content: {},
      type: "m.room.message",
      stream,
      depth: room.events.length + 1,
      ...ev,
    });
  };
  add({ type: "m.room.create", state_key: "", content: { creator: "@a:x" } });
  add({ type: "m.room.member", state_key: "@a:x", content: { membership: "join" } });
  for (let i = 0; i < count; i++) add({ content: { body: String(i) } });
  return room;
}

describe("paginate", () => {
  it("hands a continuation only when more events remain", () => {
    const room = roomWith(4);
    const all = paginate(room, "@a:x", { from: 1000, dir: "b", limit: 6 });
    expect(all.events.length).toBe(6);
    expect(all.next).toBeUndefined();
    const part = paginate(room, "@a:x", { from: 1000, dir: "b", limit: 2 });
    expect(part.events.map((e) => e.content["body"])).toEqual(["3", "2"]);
    const rest = paginate(room, "@a:x", { from: part.next as number, dir: "b", limit: 10 });
    expect(rest.events.map((e) => e.event_id)).toEqual(["$8", "$6", "$4", "$2"]);
    const none = paginate(room, "@a:x", { from: 1000, dir: "b", limit: 0 });
    expect(none.events).toEqual([]);
    expect(none.next).toBe(1000);
    const fwd = paginate(room, "@a:x", { from: 0, dir: "f", limit: 3 });
    const fwdRest = paginate(room, "@a:x", { from: fwd.next as number, dir: "f", limit: 10 });
    expect([...fwd.events, ...fwdRest.events].map((e) => e.event_id)).toEqual(
      room.events.map((e) => e.event_id),
    );
    const bounded = paginate(room, "@a:x", { from: 1000, dir: "b", limit: 10, to: 8 });
    expect(bounded.events.map((e) => e.content["body"])).toEqual(["3", "2"]);
  });
});

describe("redaction algorithm", () => {
  const pl = { ban: 50, invite: 0, events: {}, notifications: { room: 50 }, users: {}, historical: 100 };
  it("keeps invite in power levels from v11 only", () => {
    expect(redactContent("m.room.power_levels", pl, "10")).toEqual({ ban: 50, events: {}, users: {} });
    expect(redactContent("m.room.power_levels", pl, "11")).toEqual({
      ban: 50,
      invite: 0,
      events: {},
      users: {},
    });
  });
  it("keeps the whole create event from v11, allow from v8, authorising user from v9", () => {
    expect(redactContent("m.room.create", { creator: "@a:x", room_version: "5", foo: 1 }, "10")).toEqual({
      creator: "@a:x",
    });
    expect(redactContent("m.room.create", { room_version: "11", foo: 1 }, "11")).toEqual({
      room_version: "11",
      foo: 1,
    });
    expect(redactContent("m.room.join_rules", { join_rule: "restricted", allow: [] }, "7")).toEqual({
      join_rule: "restricted",
    });
    expect(redactContent("m.room.join_rules", { join_rule: "restricted", allow: [] }, "8")).toEqual({
      join_rule: "restricted",
      allow: [],
    });
    const member = { membership: "join", join_authorised_via_users_server: "@b:x", displayname: "A" };
    expect(redactContent("m.room.member", member, "8")).toEqual({ membership: "join" });
    expect(redactContent("m.room.member", member, "9")).toEqual({
      membership: "join",
      join_authorised_via_users_server: "@b:x",
    });
    expect(redactContent("m.room.redaction", { redacts: "$x", reason: "r" }, "10")).toEqual({});
    expect(redactContent("m.room.redaction", { redacts: "$x", reason: "r" }, "11")).toEqual({
      redacts: "$x",
    });
    expect(redactContent("m.room.aliases", { aliases: ["#a:x"] }, "5")).toEqual({ aliases: ["#a:x"] });
    expect(redactContent("m.room.aliases", { aliases: ["#a:x"] }, "6")).toEqual({});
  });
});

describe("power levels", () => {
  it("resolves defaults, per-user levels and v12 creators", () => {
    const room = roomWith(0);
    let levels = PowerLevels.of(room);
    expect(levels.userLevel("@a:x")).toBe(100);
    expect(levels.userLevel("@b:x")).toBe(0);
    room.append({
      event_id: "$pl",
      room_id: room.roomId,
      sender: "@a:x",
      origin_server_ts: 1,
      type: "m.room.power_levels",
      state_key: "",
      content: { users: { "@b:x": 40 }, users_default: 5 },
      stream: 100,
      depth: 3,
    });
    levels = PowerLevels.of(room);
    expect(levels.userLevel("@b:x")).toBe(40);
    expect(levels.userLevel("@c:x")).toBe(5);
    expect(levels.eventLevel("m.room.topic", true)).toBe(50);
    expect(levels.eventLevel("m.room.message", false)).toBe(0);
    expect(levels.action("ban")).toBe(50);
    expect(levels.action("invite")).toBe(0);
    expect(levels.notificationLevel("room")).toBe(50);
    const v12 = new Room("!v12", "12");
    v12.append({
      event_id: "$c",
      room_id: "!v12",
      sender: "@a:x",
      origin_server_ts: 1,
      type: "m.room.create",
      state_key: "",
      content: { room_version: "12", additional_creators: ["@b:x"] },
      stream: 1,
      depth: 1,
    });
    expect(PowerLevels.of(v12).userLevel("@b:x")).toBe(Number.POSITIVE_INFINITY);
  });
});

describe("filters", () => {
  it("matches wildcards, senders, rooms and contains_url", () => {
    const f = parseEventFilter({
      types: ["m.room.*"],
      not_types: ["m.room.member"],
      not_senders: ["@spam:x"],
      contains_url: true,
    });
    const ev = { type: "m.room.message", sender: "@a:x", room_id: "!r", content: { url: "mxc://a/b" } };
    expect(eventMatches(f, ev)).toBe(true);
    expect(eventMatches(f, { ...ev, type: "m.room.member" })).toBe(false);
    expect(eventMatches(f, { ...ev, sender: "@spam:x" })).toBe(false);
    expect(eventMatches(f, { ...ev, content: {} })).toBe(false);
    expect(eventMatches(f, { ...ev, type: "m.roomy" })).toBe(false);
    expect(() => parseEventFilter({ types: [1] })).toThrow();
    expect(() => parseEventFilter("x")).toThrow();
  });
});
