/**
 * Rooms and Room: rooms appear from sync batches by category, 'Unknown room'
 * for others, `__proto__` is an ordinary id, and each snapshot carries the
 * state, members with power levels, name, DM flag, tags, receipts, typing
 * and unread counts; old snapshots never change.
 */
import { describe, expect, it } from "vitest";
import { ModelError } from "../../../src/models/errors";
import { Rooms } from "../../../src/models/room/Rooms";
import { ROOM_STATE_DEFAULTS } from "../../../src/models/room/RoomState";
import type { SyncBatchListener } from "../../../src/sync/processor/types";
import { encodeSlidingToken } from "../../../src/sync/sliding/token";
import { emptyParsedSync } from "../../../src/sync/validate/types";
import {
  ALICE,
  BOB,
  FakeHttp,
  ME,
  batch,
  joined,
  member,
  msg,
  redaction,
  state,
} from "../support/room-fixtures";

function setup() {
  let listener: SyncBatchListener | undefined;
  const source = {
    subscribe(l: SyncBatchListener) {
      listener = l;
      return () => {
        listener = undefined;
      };
    },
  };
  const rooms = new Rooms({ userId: ME, http: new FakeHttp(), source });
  return {
    rooms,
    emit: (b: Parameters<SyncBatchListener>[0]) => void listener?.(b),
    detached: () => listener === undefined,
  };
}

describe("Rooms", () => {
  it("throws 'Unknown room' for a room sync never named, and knows it afterwards", () => {
    const { rooms, emit } = setup();
    expect(() => rooms.get("!a:hs")).toThrow("Unknown room");
    try {
      rooms.get("!a:hs");
    } catch (e) {
      expect(e).toBeInstanceOf(ModelError);
      expect((e as ModelError).code).toBe("UNKNOWN_ROOM");
    }
    emit(batch({ "!a:hs": joined({ events: [msg("$1", 10)] }) }));
    expect(rooms.get("!a:hs").getSnapshot().category).toBe("join");
    expect(rooms.all.getSnapshot().size).toBe(1);
  });

  it("treats __proto__ and constructor as ordinary room ids", () => {
    const { rooms, emit } = setup();
    expect(() => rooms.get("__proto__")).toThrow("Unknown room");
    emit(
      batch(
        new Map([
          ["__proto__", joined({ events: [msg("$p", 1)] })],
          ["constructor", joined()],
        ]),
      ),
    );
    const ids = [...rooms.all.getSnapshot().keys()].sort();
    expect(ids).toEqual(["__proto__", "constructor"]);
    expect(rooms.get("__proto__").recentEvents.map((e) => e.event_id)).toEqual(["$p"]);
  });

  it("tracks the membership category: invite, join, knock, leave", () => {
    const { rooms, emit } = setup();
    const b = emptyParsedSync("s");
    b.rooms.invite.set("!i:hs", {
      inviteState: [{ type: "m.room.member", state_key: ME, sender: BOB, content: { membership: "invite" } }],
    });
    b.rooms.knock.set("!k:hs", { knockState: [] });
    emit({ ...b, fromCache: false, catchingUp: false });
    expect(rooms.get("!i:hs").getSnapshot().category).toBe("invite");
    expect(rooms.get("!i:hs").getSnapshot().inviter).toBe(BOB);
    expect(rooms.get("!k:hs").getSnapshot().category).toBe("knock");
    emit(batch({ "!i:hs": joined({ state: [member(ME, "join")] }) }));
    expect(rooms.get("!i:hs").getSnapshot().category).toBe("join");
    const l = emptyParsedSync("s2");
    l.rooms.leave.set("!i:hs", {
      state: [],
      timeline: { events: [member(ME, "leave")], limited: false },
      accountData: [],
    });
    emit({ ...l, fromCache: false, catchingUp: false });
    expect(rooms.get("!i:hs").getSnapshot().category).toBe("leave");
    expect(rooms.get("!i:hs").getSnapshot().members.get(ME)?.membership).toBe("leave");
  });

  it("stops listening on dispose", () => {
    const { rooms, detached } = setup();
    rooms.dispose();
    expect(detached()).toBe(true);
  });

  it("reports which rooms a batch changed", () => {
    const { rooms, emit } = setup();
    const seen: string[][] = [];
    rooms.onChange((ids) => seen.push([...ids]));
    emit(batch({ "!a:hs": joined(), "!b:hs": joined() }));
    emit(batch({ "!b:hs": joined({ events: [msg("$x", 5)] }) }));
    expect(seen).toEqual([["!a:hs", "!b:hs"], ["!b:hs"]]);
  });
});

describe("Room snapshot", () => {
  it("computes members with power levels, the name from heroes, and SPEC §3 defaults", () => {
    const { rooms, emit } = setup();
    emit(
      batch({
        "!r:hs": joined({
          state: [
            state("m.room.create", "", { room_version: "10", creator: ALICE }),
            state("m.room.power_levels", "", { users: { [ALICE]: 100, [BOB]: 50 } }),
            member(ALICE, "join", { displayname: "Alice" }),
            member(BOB, "join", { displayname: "Bob" }),
            member(ME, "join"),
          ],
          summary: { heroes: [ALICE, BOB], joinedMemberCount: 3 },
        }),
      }),
    );
    const snap = rooms.get("!r:hs").getSnapshot();
    expect(snap.members.get(ALICE)).toMatchObject({ membership: "join", name: "Alice", powerLevel: 100 });
    expect(snap.members.get(BOB)?.powerLevel).toBe(50);
    expect(snap.members.get(ME)?.powerLevel).toBe(0);
    expect(snap.name.name).toBe("Alice and Bob");
    expect(snap.state.joinRule).toBe(ROOM_STATE_DEFAULTS.joinRule);
    expect(snap.state.historyVisibility).toBe("shared");
    expect(snap.state.guestAccess).toBe("forbidden");
  });

  it("names the room from m.room.name and gives a new snapshot per change, leaving the old one intact", () => {
    const { rooms, emit } = setup();
    emit(batch({ "!r:hs": joined({ state: [state("m.room.name", "", { name: "First" })] }) }));
    const room = rooms.get("!r:hs");
    const first = room.getSnapshot();
    const seen: string[] = [];
    room.subscribe((s) => seen.push(s.name.name));
    emit(batch({ "!r:hs": joined({ events: [state("m.room.name", "", { name: "Second" }, ALICE, 2)] }) }));
    expect(first.name.name).toBe("First");
    expect(first.state.content("m.room.name")).toEqual({ name: "First" });
    expect(room.getSnapshot().name.name).toBe("Second");
    expect(seen).toEqual(["Second"]);
    expect(Object.isFrozen(room.getSnapshot())).toBe(true);
  });

  it("flags DMs from m.direct, and updates when m.direct changes", () => {
    const { rooms, emit } = setup();
    emit(
      batch(
        {
          "!dm:hs": joined({ state: [member(BOB, "join", { avatar_url: "mxc://hs/bob" })] }),
          "!g:hs": joined(),
        },
        {
          accountData: [{ type: "m.direct", content: { [BOB]: ["!dm:hs"] } }],
        },
      ),
    );
    expect(rooms.get("!dm:hs").getSnapshot()).toMatchObject({
      isDirect: true,
      directUserId: BOB,
      avatarUrl: "mxc://hs/bob",
    });
    expect(rooms.get("!g:hs").getSnapshot().isDirect).toBe(false);
    emit(batch({}, { accountData: [{ type: "m.direct", content: {} }] }));
    expect(rooms.get("!dm:hs").getSnapshot().isDirect).toBe(false);
  });

  it("reads tags, room account data, receipts per event, typing and unread counts", () => {
    const { rooms, emit } = setup();
    emit(
      batch({
        "!r:hs": joined({
          events: [msg("$1", 1), msg("$2", 2)],
          accountData: [
            { type: "m.tag", content: { tags: { "m.favourite": { order: 0.5 }, "u.work": {} } } },
          ],
          ephemeral: [
            { type: "m.typing", content: { user_ids: [ALICE, 42] } },
            {
              type: "m.receipt",
              content: {
                $1: { "m.read": { [BOB]: { ts: 5 } } },
                $2: {
                  "m.read": { [ALICE]: { ts: 6, thread_id: "main" } },
                  "m.read.private": { [ME]: { ts: 7 } },
                },
              },
            },
          ],
          unreadNotifications: { highlightCount: 1, notificationCount: 3 },
          unreadThreadNotifications: new Map([["$root", { highlightCount: 0, notificationCount: 2 }]]),
        }),
      }),
    );
    const snap = rooms.get("!r:hs").getSnapshot();
    expect([...snap.tags]).toEqual([
      ["m.favourite", { order: 0.5 }],
      ["u.work", {}],
    ]);
    expect(snap.accountData.get("m.tag")).toBeDefined();
    expect(snap.typing).toEqual([ALICE]);
    expect(snap.receipts.byEvent("$1").map((r) => r.userId)).toEqual([BOB]);
    expect(snap.receipts.of(ALICE, "m.read", "main")?.eventId).toBe("$2");
    expect(snap.receipts.of(ME, "m.read.private")?.eventId).toBe("$2");
    expect(snap.unread).toEqual({ highlightCount: 1, notificationCount: 3 });
    expect(snap.threadUnread.get("$root")?.notificationCount).toBe(2);
    expect(rooms.get("!r:hs").threads.get("$root")?.unread.notificationCount).toBe(2);
    expect(snap.lastActivityTs).toBe(2);
    // A receipt moves forward: the old one no longer points at $1.
    emit(
      batch({
        "!r:hs": joined({
          ephemeral: [{ type: "m.receipt", content: { $2: { "m.read": { [BOB]: { ts: 9 } } } } }],
        }),
      }),
    );
    const after = rooms.get("!r:hs").getSnapshot();
    expect(after.receipts.byEvent("$1")).toEqual([]);
    expect(snap.receipts.byEvent("$1").length).toBe(1);
  });

  it("clears the counts at once when the user's own receipt on the newest event is sent", () => {
    const { rooms, emit } = setup();
    emit(
      batch({
        "!r:hs": joined({
          events: [msg("$1", 1), msg("$2", 2)],
          unreadNotifications: { highlightCount: 1, notificationCount: 2 },
          unreadThreadNotifications: new Map([["$root", { highlightCount: 0, notificationCount: 1 }]]),
        }),
      }),
    );
    const changed: string[][] = [];
    rooms.onChange((ids) => changed.push([...ids]));
    // Another user's receipt, or ours on an older event, leaves the server's counts alone.
    rooms.applyOwnReceipt("!r:hs", { userId: BOB, eventId: "$2", type: "m.read", ts: 3 });
    rooms.applyOwnReceipt("!r:hs", { userId: ME, eventId: "$1", type: "m.read", ts: 3 });
    expect(rooms.get("!r:hs").getSnapshot().unread.notificationCount).toBe(2);
    rooms.applyOwnReceipt("!r:hs", { userId: ME, eventId: "$2", type: "m.read", ts: 4 });
    const snap = rooms.get("!r:hs").getSnapshot();
    expect(snap.unread).toEqual({ highlightCount: 0, notificationCount: 0 });
    expect(snap.threadUnread.size).toBe(0);
    expect(snap.receipts.of(ME, "m.read")?.eventId).toBe("$2");
    expect(changed.at(-1)).toEqual(["!r:hs"]);
  });

  it("counts unread events locally (sliding sync) with the user's own push rules from m.push_rules", () => {
    const { rooms, emit } = setup();
    const room = (ruleId: string) => ({
      rule_id: ruleId,
      default: false,
      enabled: true,
      actions: [],
    });
    // m.push_rules holds the ruleset under "global"; a room rule with no actions mutes !muted:hs.
    const pushRules = {
      type: "m.push_rules",
      content: {
        global: {
          override: [],
          content: [],
          room: [room("!muted:hs")],
          sender: [],
          underride: [
            {
              rule_id: ".m.rule.message",
              default: true,
              enabled: true,
              conditions: [{ kind: "event_match", key: "type", pattern: "m.room.message" }],
              actions: ["notify"],
            },
          ],
        },
      },
    };
    const sliding = encodeSlidingToken({ pos: "1" });
    emit(
      batch(
        {
          "!muted:hs": joined({ events: [msg("$m1", 1), msg("$m2", 2)] }),
          "!loud:hs": joined({ events: [msg("$l1", 1)] }),
        },
        { accountData: [pushRules], nextBatch: sliding },
      ),
    );
    expect(rooms.get("!muted:hs").getSnapshot().unread.notificationCount).toBe(0);
    expect(rooms.get("!loud:hs").getSnapshot().unread.notificationCount).toBe(1);
  });

  it("keeps only the recent events while no timeline is open, and strips a late redaction's target", () => {
    const { rooms, emit } = setup();
    for (let i = 0; i < 10; i++) {
      emit(
        batch({
          "!r:hs": joined({
            events: [msg(`$a${i}`, i * 10), msg(`$b${i}`, i * 10 + 1), msg(`$c${i}`, i * 10 + 2)],
            prevBatch: `t${i}`,
          }),
        }),
      );
    }
    const room = rooms.get("!r:hs");
    expect(room.recentEvents.length).toBeGreaterThanOrEqual(20);
    expect(room.recentEvents.length).toBeLessThan(24);
    expect(room.recentEvents.at(-1)?.event_id).toBe("$c9");
    emit(batch({ "!r:hs": joined({ events: [redaction("$red", "$c9", 200)] }) }));
    const stripped = room.recentEvents.find((e) => e.event_id === "$c9");
    expect(stripped?.content).toEqual({});
    expect(stripped?.unsigned?.redacted_because?.event_id).toBe("$red");
  });
});
