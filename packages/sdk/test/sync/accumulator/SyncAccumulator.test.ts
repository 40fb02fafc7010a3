/**
 * The accumulator's folding rules: timeline window and tokens, current state
 * (with and without state_after), membership categories, account data,
 * receipts, counts and summary; and that the serialised snapshot reads back
 * into the same accumulator.
 */
import { describe, expect, it } from "vitest";
import { SyncAccumulator } from "../../../src/sync/accumulator/SyncAccumulator";
import { restoreAccumulator } from "../../../src/sync/accumulator/restore";
import { parseSyncResponse } from "../../../src/sync/validate/parseSync";
import type { ParsedSync } from "../../../src/sync/validate/types";
import { member, message, recordingLogger, stateEvent } from "../processor/fixtures";

const R = "!room:x";

function parse(raw: Record<string, unknown>, nextBatch = "n"): ParsedSync {
  return parseSyncResponse({ next_batch: nextBatch, ...raw }, { logger: recordingLogger() });
}

function joined(room: Record<string, unknown>, roomId = R): ParsedSync {
  return parse({ rooms: { join: { [roomId]: room } } });
}

function timelineIds(acc: SyncAccumulator, roomId = R): string[] {
  return (
    acc
      .toBatch("t")
      .rooms.join.get(roomId)
      ?.timeline.events.map((e) => e.event_id) ?? []
  );
}

describe("SyncAccumulator", () => {
  it("keeps the newest 50 timeline entries from a batch start, with that batch's prev_batch", () => {
    const acc = new SyncAccumulator();
    const first = Array.from({ length: 40 }, (_, i) => message(`a${i}`));
    const second = Array.from({ length: 30 }, (_, i) => message(`b${i}`));
    acc.accumulate(joined({ timeline: { events: first, prev_batch: "p1" } }), undefined);
    acc.accumulate(joined({ timeline: { events: second, prev_batch: "p2" } }), "s1");
    // 70 events, 50 kept in memory; the persisted window starts at the second batch (its token is exact).
    const batch = acc.toBatch("t").rooms.join.get(R);
    expect(batch?.timeline.events.map((e) => e.event_id)).toEqual(second.map((e) => e.event_id));
    expect(batch?.timeline.prevBatch).toBe("p2");
    expect(batch?.timeline.limited).toBe(true);
  });

  it("uses the sync's since as the token of a batch without prev_batch", () => {
    const acc = new SyncAccumulator();
    const events = Array.from({ length: 60 }, () => message("x"));
    for (let i = 0; i < 60; i++) {
      acc.accumulate(joined({ timeline: { events: [events[i]] } }), `s${i}`);
    }
    const batch = acc.toBatch("t").rooms.join.get(R);
    expect(batch?.timeline.events).toHaveLength(50);
    expect(batch?.timeline.events[0]?.event_id).toBe(events[10]?.event_id);
    expect(batch?.timeline.prevBatch).toBe("s10");
  });

  it("drops the kept timeline on a limited batch (a gap) and de-duplicates by event id", () => {
    const acc = new SyncAccumulator();
    const old = message("old");
    const e1 = message("1");
    acc.accumulate(joined({ timeline: { events: [old], prev_batch: "p0" } }));
    acc.accumulate(joined({ timeline: { events: [e1], prev_batch: "p1", limited: true } }), "s");
    expect(timelineIds(acc)).toEqual([e1.event_id]);
    acc.accumulate(joined({ timeline: { events: [e1, message("2")] } }), "s2");
    expect(timelineIds(acc)).toHaveLength(2);
    expect(acc.hasTimelineEvent(R, e1.event_id)).toBe(true);
    expect(acc.hasTimelineEvent(R, old.event_id)).toBe(false);
  });

  it("folds state then timeline state events, latest per (type, state_key)", () => {
    const acc = new SyncAccumulator();
    acc.accumulate(
      joined({
        state: { events: [stateEvent("m.room.name", "", { name: "A" }), member("@a:x")] },
        timeline: { events: [stateEvent("m.room.name", "", { name: "B" }), message("hi")], prev_batch: "p" },
      }),
    );
    acc.accumulate(joined({ timeline: { events: [member("@a:x", "leave"), member("@b:x")] } }), "s1");
    const state = acc.toBatch("t").rooms.join.get(R)?.state ?? [];
    expect(state.map((e) => [e.type, e.state_key, e.content])).toEqual([
      ["m.room.name", "", { name: "B" }],
      ["m.room.member", "@a:x", { membership: "leave" }],
      ["m.room.member", "@b:x", { membership: "join" }],
    ]);
  });

  it("with state_after applies it and not the timeline's state events", () => {
    const acc = new SyncAccumulator();
    acc.accumulate(
      joined({
        state_after: { events: [stateEvent("m.room.topic", "", { topic: "after" })] },
        timeline: { events: [stateEvent("m.room.topic", "", { topic: "in timeline" })], prev_batch: "p" },
      }),
    );
    const state = acc.toBatch("t").rooms.join.get(R)?.state ?? [];
    expect(state.map((e) => e.content)).toEqual([{ topic: "after" }]);
  });

  it("makes invite, knock, join and leave replace each other; leave removes the room", () => {
    const acc = new SyncAccumulator();
    const stripped = {
      type: "m.room.member",
      state_key: "@me:x",
      sender: "@a:x",
      content: { membership: "invite" },
    };
    acc.accumulate(parse({ rooms: { invite: { [R]: { invite_state: { events: [stripped] } } } } }));
    expect(acc.categoryOf(R)).toBe("invite");
    expect(acc.toBatch("t").rooms.invite.get(R)?.inviteState).toEqual([stripped]);
    acc.accumulate(joined({ timeline: { events: [message("hi")], prev_batch: "p" } }));
    expect(acc.categoryOf(R)).toBe("join");
    expect(acc.toBatch("t").rooms.invite.size).toBe(0);
    acc.accumulate(parse({ rooms: { knock: { [R]: { knock_state: { events: [stripped] } } } } }));
    expect(acc.categoryOf(R)).toBe("knock");
    expect(acc.toBatch("t").rooms.join.size).toBe(0);
    acc.accumulate(parse({ rooms: { leave: { [R]: {} } } }));
    expect(acc.categoryOf(R)).toBeUndefined();
    expect(acc.roomCount).toBe(0);
    acc.accumulate(joined({ timeline: { events: [message("back")], prev_batch: "p" } }));
    // A rejoin starts afresh: nothing of the earlier membership survives.
    expect(timelineIds(acc)).toHaveLength(1);
  });

  it("keeps the latest account data per type, global and per room", () => {
    const acc = new SyncAccumulator();
    acc.accumulate(
      parse({
        account_data: {
          events: [
            { type: "m.direct", content: { a: 1 } },
            { type: "m.x", content: {} },
          ],
        },
        rooms: {
          join: { [R]: { account_data: { events: [{ type: "m.tag", content: { tags: { a: {} } } }] } } },
        },
      }),
    );
    acc.accumulate(
      parse({
        account_data: { events: [{ type: "m.direct", content: { a: 2 } }] },
        rooms: { join: { [R]: { account_data: { events: [{ type: "m.tag", content: { tags: {} } }] } } } },
      }),
    );
    expect(acc.accountData()).toEqual([
      { type: "m.direct", content: { a: 2 } },
      { type: "m.x", content: {} },
    ]);
    expect(acc.toBatch("t").rooms.join.get(R)?.accountData).toEqual([
      { type: "m.tag", content: { tags: {} } },
    ]);
  });

  it("keeps the latest receipt per user, receipt type and thread, m.read.private included", () => {
    const acc = new SyncAccumulator();
    const receipt = (content: Record<string, unknown>) =>
      joined({ ephemeral: { events: [{ type: "m.receipt", content }] } });
    acc.accumulate(
      receipt({
        $e1: {
          "m.read": { "@a:x": { ts: 1 }, "@b:x": { ts: 1 } },
          "m.read.private": { "@a:x": { ts: 1 } },
        },
        $t1: { "m.read": { "@a:x": { ts: 2, thread_id: "$root" } } },
      }),
    );
    acc.accumulate(receipt({ $e2: { "m.read": { "@a:x": { ts: 3 } } } }));
    const ephemeral = acc.toBatch("t").rooms.join.get(R)?.ephemeral ?? [];
    expect(ephemeral).toHaveLength(1);
    expect(JSON.parse(JSON.stringify(ephemeral[0]))).toEqual({
      type: "m.receipt",
      content: {
        $e1: { "m.read": { "@b:x": { ts: 1 } }, "m.read.private": { "@a:x": { ts: 1 } } },
        $t1: { "m.read": { "@a:x": { ts: 2, thread_id: "$root" } } },
        $e2: { "m.read": { "@a:x": { ts: 3 } } },
      },
    });
  });

  it("keeps receipt ids like __proto__ as data", () => {
    const acc = new SyncAccumulator();
    const content = JSON.parse(`{"__proto__":{"m.read":{"__proto__":{"ts":1}}}}`) as Record<string, unknown>;
    acc.accumulate(joined({ ephemeral: { events: [{ type: "m.receipt", content }] } }));
    const event = acc.toBatch("t").rooms.join.get(R)?.ephemeral[0];
    expect(JSON.stringify(event)).toBe(
      `{"type":"m.receipt","content":{"__proto__":{"m.read":{"__proto__":{"ts":1}}}}}`,
    );
    expect(({} as Record<string, unknown>)["m.read"]).toBeUndefined();
  });

  it("keeps the latest unread counts, the thread counts and merges the summary", () => {
    const acc = new SyncAccumulator();
    acc.accumulate(
      joined({
        summary: { "m.heroes": ["@b:x"], "m.joined_member_count": 2 },
        unread_notifications: { highlight_count: 1, notification_count: 3 },
        unread_thread_notifications: { $t: { highlight_count: 0, notification_count: 1 } },
      }),
    );
    acc.accumulate(
      joined({ summary: { "m.joined_member_count": 3 }, unread_notifications: { notification_count: 0 } }),
    );
    const room = acc.toBatch("t").rooms.join.get(R);
    expect(room?.summary).toEqual({ heroes: ["@b:x"], joinedMemberCount: 3 });
    expect(room?.unreadNotifications).toEqual({ highlightCount: 0, notificationCount: 0 });
    expect([...(room?.unreadThreadNotifications ?? [])]).toEqual([
      ["$t", { highlightCount: 0, notificationCount: 1 }],
    ]);
    acc.accumulate(joined({ unread_thread_notifications: {} }));
    expect(acc.toBatch("t").rooms.join.get(R)?.unreadThreadNotifications?.size).toBe(0);
  });

  it("is idempotent: folding the same batch twice changes nothing", () => {
    const acc = new SyncAccumulator();
    const batch = joined({
      state: { events: [member("@a:x")] },
      timeline: { events: [message("1"), message("2")], prev_batch: "p" },
      ephemeral: { events: [{ type: "m.receipt", content: { $e: { "m.read": { "@a:x": { ts: 1 } } } } }] },
    });
    acc.accumulate(batch, "s");
    const once = JSON.stringify(acc.serialise());
    acc.accumulate(batch, "s");
    expect(JSON.stringify(acc.serialise())).toBe(once);
  });

  it("serialises a room again after each batch that changes it (the stored copy is not stale)", () => {
    const acc = new SyncAccumulator();
    const a = message("a");
    const b = message("b");
    acc.accumulate(joined({ timeline: { events: [a], prev_batch: "p1" } }), undefined);
    const first = acc.serialise().join.find((r) => r.room_id === R);
    expect(first?.timeline.events.map((e) => e.event_id)).toEqual([a.event_id]);
    // An unchanged room is served from the cached copy; a changed one is built again.
    expect(acc.serialise().join.find((r) => r.room_id === R)).toBe(first);
    acc.accumulate(joined({ timeline: { events: [b] } }), "s1");
    const second = acc.serialise().join.find((r) => r.room_id === R);
    expect(second?.timeline.events.map((e) => e.event_id)).toEqual([a.event_id, b.event_id]);
  });

  it("round-trips through the serialised shape", () => {
    const acc = new SyncAccumulator();
    acc.accumulate(
      parse({
        account_data: { events: [{ type: "m.direct", content: { "@b:x": ["!d:x"] } }] },
        rooms: {
          join: {
            [R]: {
              summary: { "m.heroes": ["@b:x"], "m.joined_member_count": 2, "m.invited_member_count": 0 },
              state: { events: [member("@a:x"), member("@b:x")] },
              timeline: { events: [message("1"), message("2")], prev_batch: "p" },
              ephemeral: {
                events: [{ type: "m.receipt", content: { $e: { "m.read": { "@a:x": { ts: 1 } } } } }],
              },
              account_data: { events: [{ type: "m.tag", content: { tags: {} } }] },
              unread_notifications: { highlight_count: 1, notification_count: 2 },
              unread_thread_notifications: { $t: { highlight_count: 0, notification_count: 1 } },
            },
          },
          invite: {
            "!i:x": {
              invite_state: { events: [{ type: "m.room.name", state_key: "", sender: "@a:x", content: {} }] },
            },
          },
          knock: { "!k:x": { knock_state: { events: [] } } },
        },
      }),
    );
    const data = JSON.parse(JSON.stringify(acc.serialise())) as unknown;
    const restored = restoreAccumulator(data, JSON.parse(JSON.stringify(acc.accountData())) as unknown[], {
      logger: recordingLogger(),
    });
    expect(restored.serialise()).toEqual(acc.serialise());
    expect(restored.accountData()).toEqual(acc.accountData());
  });

  it("refuses a snapshot of another version and drops malformed stored rooms with a log line", () => {
    expect(() => restoreAccumulator({ version: 99 }, [], { logger: recordingLogger() })).toThrow(
      /version 99/,
    );
    expect(() => restoreAccumulator("x", [], { logger: recordingLogger() })).toThrow(/not an object/);
    const log = recordingLogger();
    const acc = restoreAccumulator(
      { version: 1, join: [{ room_id: 5 }, { room_id: "!ok:x", state: [{ type: "x" }] }], invite: "x" },
      [{ type: 1 }],
      { logger: log },
    );
    expect(acc.categoryOf("!ok:x")).toBe("join");
    expect(acc.roomCount).toBe(1);
    expect(acc.accountData()).toEqual([]);
    expect(log.lines.some((l) => l.includes("invalid room id"))).toBe(true);
    expect(log.lines.some((l) => l.includes("stored state event"))).toBe(true);
  });
});
