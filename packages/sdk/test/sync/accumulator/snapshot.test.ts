/**
 * The persisted shape of StoredSync.roomsData, pinned by a snapshot so a
 * format change breaks a test (and must bump ROOMS_DATA_VERSION), and the
 * accumulator's cost at 3,000 rooms of 50 members: linear, not quadratic.
 */
import { describe, expect, it } from "vitest";
import type { ClientEventWithoutRoomId } from "../../../src/api/types/events";
import { SyncAccumulator } from "../../../src/sync/accumulator/SyncAccumulator";
import { restoreAccumulator } from "../../../src/sync/accumulator/restore";
import { ROOMS_DATA_VERSION } from "../../../src/sync/accumulator/stored-types";
import { parseSyncResponse } from "../../../src/sync/validate/parseSync";
import { recordingLogger } from "../processor/fixtures";

function ev(
  id: string,
  type: string,
  extra: Partial<ClientEventWithoutRoomId> = {},
): ClientEventWithoutRoomId {
  return { event_id: id, type, sender: "@a:x", origin_server_ts: 1, content: {}, ...extra };
}

describe("roomsData shape", () => {
  it("matches the pinned version-1 snapshot", () => {
    const acc = new SyncAccumulator();
    const batch = parseSyncResponse(
      {
        next_batch: "s1",
        account_data: { events: [{ type: "m.direct", content: {} }] },
        rooms: {
          join: {
            "!j:x": {
              summary: { "m.heroes": ["@b:x"], "m.joined_member_count": 2, "m.invited_member_count": 1 },
              state: {
                events: [ev("$c", "m.room.create", { state_key: "", content: { room_version: "11" } })],
              },
              timeline: {
                events: [
                  ev("$m", "m.room.member", { state_key: "@b:x", content: { membership: "join" } }),
                  ev("$t", "m.room.message", { content: { body: "hi" }, unsigned: { age: 5 } }),
                ],
                prev_batch: "p1",
              },
              ephemeral: {
                events: [
                  {
                    type: "m.receipt",
                    content: { $t: { "m.read": { "@b:x": { ts: 9, thread_id: "main" } } } },
                  },
                  { type: "m.typing", content: { user_ids: ["@b:x"] } },
                ],
              },
              account_data: { events: [{ type: "m.fully_read", content: { event_id: "$t" } }] },
              unread_notifications: { highlight_count: 0, notification_count: 1 },
              unread_thread_notifications: { $root: { highlight_count: 1, notification_count: 1 } },
            },
          },
          invite: {
            "!i:x": {
              invite_state: { events: [{ type: "m.room.name", state_key: "", sender: "@c:x", content: {} }] },
            },
          },
          knock: { "!k:x": { knock_state: { events: [] } } },
        },
      },
      { logger: recordingLogger() },
    );
    acc.accumulate(batch);
    const data = acc.serialise();
    expect(data.version).toBe(ROOMS_DATA_VERSION);
    expect(JSON.parse(JSON.stringify(data))).toMatchSnapshot();
  });
});

/** An initial sync of `rooms` rooms with `members` members and 20 messages each. */
function bigSync(rooms: number, members: number): unknown {
  const join: Record<string, unknown> = {};
  for (let r = 0; r < rooms; r++) {
    const state = [];
    for (let m = 0; m < members; m++) {
      state.push(
        ev(`$r${r}m${m}`, "m.room.member", { state_key: `@u${m}:x`, content: { membership: "join" } }),
      );
    }
    const timeline = [];
    for (let t = 0; t < 20; t++)
      timeline.push(ev(`$r${r}t${t}`, "m.room.message", { content: { body: `m${t}` } }));
    join[`!r${r}:x`] = { state: { events: state }, timeline: { events: timeline, prev_batch: `p${r}` } };
  }
  return { next_batch: "s1", rooms: { join } };
}

function timeFold(rooms: number): number {
  const raw = bigSync(rooms, 50);
  const start = performance.now();
  const acc = new SyncAccumulator();
  acc.accumulate(parseSyncResponse(raw, { logger: recordingLogger() }));
  const restored = restoreAccumulator(acc.serialise(), [], { logger: recordingLogger() });
  restored.toBatch("s1");
  expect(restored.roomCount).toBe(rooms);
  return performance.now() - start;
}

describe("accumulator cost", () => {
  it("handles 3,000 rooms of 50 members in linear time", () => {
    timeFold(300); // warm up the JIT
    const small = Math.min(timeFold(1_000), timeFold(1_000));
    const large = Math.min(timeFold(3_000), timeFold(3_000));
    // Linear work triples; quadratic work would grow ninefold.
    // (How long 3,000 rooms take is bench/sync's figure, not a bound here.)
    expect(large / small).toBeLessThan(6);
  }, 60_000);
});
