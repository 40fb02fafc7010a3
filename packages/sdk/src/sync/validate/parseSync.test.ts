/**
 * The validation phase, rule by rule: what is dropped (with the reason in the
 * log line), what passes, and what throws.
 */
import { describe, expect, it } from "vitest";
import { parseSyncResponse, SyncParseError } from "./parseSync";

function logger() {
  const lines: string[] = [];
  return { lines, warn: (m: string) => void lines.push(m) };
}

const good = (id: string, extra: Record<string, unknown> = {}) => ({
  event_id: id,
  type: "m.room.message",
  sender: "@a:x",
  origin_server_ts: 1,
  content: { body: "hi" },
  ...extra,
});

function timelineOf(events: unknown[], roomId = "!r:x") {
  return { next_batch: "n1", rooms: { join: { [roomId]: { timeline: { events } } } } };
}

function parseTimeline(events: unknown[]) {
  const log = logger();
  const parsed = parseSyncResponse(timelineOf(events), { logger: log });
  return { ids: parsed.rooms.join.get("!r:x")?.timeline.events.map((e) => e.event_id), lines: log.lines };
}

describe("parseSyncResponse", () => {
  it("throws only for an answer that is not an object or lacks next_batch", () => {
    for (const bad of [null, 3, "x", [], {}, { next_batch: 5 }, { next_batch: "" }]) {
      expect(() => parseSyncResponse(bad, { logger: logger() })).toThrow(SyncParseError);
    }
    expect(parseSyncResponse({ next_batch: "t" }, { logger: logger() }).nextBatch).toBe("t");
  });

  it.each([
    ["not an object", 5, "not an object"],
    ["missing event_id", { ...good("$x"), event_id: undefined }, "missing or invalid event_id"],
    ["numeric event_id", { ...good("$x"), event_id: 7 }, "missing or invalid event_id"],
    ["missing type", { ...good("$x"), type: undefined }, "missing or invalid type"],
    ["missing sender", { ...good("$x"), sender: undefined }, "missing or invalid sender"],
    ["sender without sigil", { ...good("$x"), sender: "bob" }, "missing or invalid sender"],
    ["string ts", { ...good("$x"), origin_server_ts: "1" }, "missing or invalid origin_server_ts"],
    ["array content", { ...good("$x"), content: [] }, "content is not an object"],
    ["null content", { ...good("$x"), content: null }, "content is not an object"],
    ["numeric state_key", { ...good("$x"), state_key: 3 }, "invalid state_key"],
    [
      "huge string",
      good("$x", { content: { body: "a".repeat(70_000) } }),
      "content has a string longer than 65536",
    ],
    ["huge event id", good("$" + "a".repeat(300)), "missing or invalid event_id"],
  ])("drops an event with %s and logs why", (_name, event, reason) => {
    const { ids, lines } = parseTimeline([event, good("$ok")]);
    expect(ids).toEqual(["$ok"]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(reason);
    expect(lines[0]).toContain("!r:x timeline");
  });

  it("drops content nested deeper than the bound, iteratively", () => {
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 100_000; i++) deep = { d: deep };
    const { ids, lines } = parseTimeline([good("$deep", { content: deep }), good("$ok")]);
    expect(ids).toEqual(["$ok"]);
    expect(lines[0]).toContain("nesting deeper than 32");
    let shallow: Record<string, unknown> = { body: "x" };
    for (let i = 0; i < 20; i++) shallow = { d: shallow };
    expect(parseTimeline([good("$fine", { content: shallow })]).ids).toEqual(["$fine"]);
  });

  it("drops duplicate event ids within the batch, across rooms too", () => {
    const log = logger();
    const parsed = parseSyncResponse(
      {
        next_batch: "n",
        rooms: {
          join: {
            "!a:x": { timeline: { events: [good("$1"), good("$2"), good("$1")] } },
            "!b:x": { timeline: { events: [good("$2"), good("$3")] } },
          },
        },
      },
      { logger: log },
    );
    expect(parsed.rooms.join.get("!a:x")?.timeline.events.map((e) => e.event_id)).toEqual(["$1", "$2"]);
    expect(parsed.rooms.join.get("!b:x")?.timeline.events.map((e) => e.event_id)).toEqual(["$3"]);
    expect(log.lines.filter((l) => l.includes("duplicate event_id"))).toHaveLength(2);
  });

  it("keeps ids like __proto__ and constructor as data", () => {
    const raw = JSON.parse(
      `{"next_batch":"n","rooms":{"join":{"!__proto__:x":{"timeline":{"events":[]}},"__proto__":{},"constructor":{}}},
        "device_one_time_keys_count":{"__proto__":5,"signed_curve25519":3}}`,
    ) as unknown;
    const log = logger();
    const parsed = parseSyncResponse(raw, { logger: log });
    expect([...parsed.rooms.join.keys()]).toEqual(["!__proto__:x"]);
    expect(log.lines.filter((l) => l.includes("invalid room id"))).toHaveLength(2);
    expect(parsed.oneTimeKeysCount?.get("__proto__")).toBe(5);
    expect(Object.prototype).not.toHaveProperty("signed_curve25519");
    const content = JSON.parse(`{"__proto__":{"polluted":true},"body":"x"}`) as Record<string, unknown>;
    const withProto = parseTimeline([good("$p", { content })]);
    expect(withProto.ids).toEqual(["$p"]);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("copies only known fields and ignores unknown ones and a malformed unsigned", () => {
    const log = logger();
    const parsed = parseSyncResponse(
      timelineOf([good("$1", { unsigned: "oops", extra: 1, state_key: "", redacts: 4 })]),
      { logger: log },
    );
    const event = parsed.rooms.join.get("!r:x")?.timeline.events[0];
    expect(event).toEqual({
      event_id: "$1",
      type: "m.room.message",
      sender: "@a:x",
      origin_server_ts: 1,
      content: { body: "hi" },
      state_key: "",
    });
    expect(log.lines).toEqual([]);
  });

  it("reads every section of a joined room", () => {
    const parsed = parseSyncResponse(
      {
        next_batch: "n",
        rooms: {
          join: {
            "!r:x": {
              summary: { "m.heroes": ["@b:x", 5], "m.joined_member_count": 2, "m.invited_member_count": -1 },
              state: { events: [good("$s", { type: "m.room.name", state_key: "" }), good("$nokey")] },
              "org.matrix.msc4222.state_after": {
                events: [good("$sa", { type: "m.room.topic", state_key: "" })],
              },
              timeline: { events: [good("$t")], limited: true, prev_batch: "p1" },
              ephemeral: { events: [{ type: "m.typing", content: { user_ids: [] } }, { type: 1 }] },
              account_data: { events: [{ type: "m.tag", content: { tags: {} } }] },
              unread_notifications: { highlight_count: 1, notification_count: 4 },
              unread_thread_notifications: {
                $root: { notification_count: 2 },
                $bad: { highlight_count: "x" },
              },
            },
          },
        },
      },
      { logger: logger() },
    );
    const room = parsed.rooms.join.get("!r:x");
    expect(room?.summary).toEqual({ heroes: ["@b:x"], joinedMemberCount: 2 });
    expect(room?.state.map((e) => e.event_id)).toEqual(["$s"]);
    expect(room?.stateAfter?.map((e) => e.event_id)).toEqual(["$sa"]);
    expect(room?.timeline).toMatchObject({ limited: true, prevBatch: "p1" });
    expect(room?.ephemeral.map((e) => e.type)).toEqual(["m.typing"]);
    expect(room?.accountData.map((e) => e.type)).toEqual(["m.tag"]);
    expect(room?.unreadNotifications).toEqual({ highlightCount: 1, notificationCount: 4 });
    expect([...(room?.unreadThreadNotifications ?? [])]).toEqual([
      ["$root", { highlightCount: 0, notificationCount: 2 }],
    ]);
  });

  it("reads invite, knock and leave rooms and the top-level sections for crypto", () => {
    const stripped = { type: "m.room.name", state_key: "", sender: "@a:x", content: { name: "n" } };
    const parsed = parseSyncResponse(
      {
        next_batch: "n",
        rooms: {
          invite: { "!i:x": { invite_state: { events: [stripped, { type: "x" }] } } },
          knock: { "!k:x": { knock_state: { events: [stripped] } } },
          leave: { "!l:x": { timeline: { events: [good("$l")] } } },
        },
        presence: { events: [{ type: "m.presence", sender: "@b:x", content: { presence: "online" } }, {}] },
        account_data: { events: [{ type: "m.direct", content: {} }] },
        to_device: {
          events: [
            { type: "m.room_key", sender: "@b:x", content: {} },
            { type: "m.x", content: {} },
          ],
        },
        device_lists: { changed: ["@b:x", 3], left: ["@c:x"] },
        device_one_time_keys_count: { signed_curve25519: 50, bad: -1 },
        "org.matrix.msc2732.device_unused_fallback_key_types": ["signed_curve25519", 7],
      },
      { logger: logger() },
    );
    expect(parsed.rooms.invite.get("!i:x")?.inviteState).toEqual([stripped]);
    expect(parsed.rooms.knock.get("!k:x")?.knockState).toEqual([stripped]);
    expect(parsed.rooms.leave.get("!l:x")?.timeline.events.map((e) => e.event_id)).toEqual(["$l"]);
    expect(parsed.presence.map((e) => e.sender)).toEqual(["@b:x"]);
    expect(parsed.accountData.map((e) => e.type)).toEqual(["m.direct"]);
    expect(parsed.toDevice.map((e) => e.type)).toEqual(["m.room_key"]);
    expect(parsed.deviceLists).toEqual({ changed: ["@b:x"], left: ["@c:x"] });
    expect([...(parsed.oneTimeKeysCount ?? [])]).toEqual([["signed_curve25519", 50]]);
    expect(parsed.unusedFallbackKeyTypes).toEqual(["signed_curve25519"]);
  });

  it("bounds the log lines of one batch and summarises the rest", () => {
    const { ids, lines } = parseTimeline([...Array.from({ length: 120 }, () => 1), good("$ok")]);
    expect(ids).toEqual(["$ok"]);
    expect(lines).toHaveLength(51);
    expect(lines[50]).toBe("Sync: dropped 70 more items in this batch");
  });
});

describe("MSC4354 sticky events", () => {
  it("reads a joined room's msc4354_sticky events apart from the timeline, dropping malformed ones", () => {
    const member = good("$m", {
      type: "org.matrix.msc4143.rtc.member",
      content: { msc4354_sticky_key: "k" },
    });
    const parsed = parseSyncResponse(
      {
        next_batch: "n",
        rooms: {
          join: { "!r:x": { timeline: { events: [good("$t")] }, msc4354_sticky: { events: [member, {}] } } },
        },
      },
      { logger: logger() },
    );
    const room = parsed.rooms.join.get("!r:x");
    expect(room?.sticky?.map((e) => e.event_id)).toEqual(["$m"]);
    expect(room?.timeline.events.map((e) => e.event_id)).toEqual(["$t"]);
    expect(
      parseSyncResponse(timelineOf([good("$t")]), { logger: logger() }).rooms.join.get("!r:x")?.sticky,
    ).toBeUndefined();
  });
});
