/**
 * Hostile room data from the server: a second m.room.create (in the timeline
 * or the state of a later sync, or in one batch) never replaces the room's
 * create event, so the room version and its creators (infinite power in
 * room version 12) stay as they were; and a private receipt is only ever
 * the user's own.
 */
import { describe, expect, it } from "vitest";
import { Rooms } from "../../src/models/room/Rooms";
import { RoomState } from "../../src/models/room/RoomState";
import type { SyncBatchListener } from "../../src/sync/processor/types";
import { ALICE, BOB, FakeHttp, ME, batch, joined, member, msg, state } from "../models/support/room-fixtures";

const MALLORY = "@mallory:hs";

function setup() {
  let listener: SyncBatchListener | undefined;
  const warnings: string[] = [];
  const source = {
    subscribe(l: SyncBatchListener) {
      listener = l;
      return () => {
        listener = undefined;
      };
    },
  };
  const logger = { warn: (message: string) => void warnings.push(message) };
  const rooms = new Rooms({ userId: ME, http: new FakeHttp(), source, logger });
  return { rooms, warnings, emit: (b: Parameters<SyncBatchListener>[0]) => void listener?.(b) };
}

const CREATE_V12 = state("m.room.create", "", { room_version: "12" }, ALICE, 1);
/** A later create naming another version and another creator. */
const SECOND_CREATE = {
  ...state("m.room.create", "", { room_version: "12", additional_creators: [MALLORY] }, MALLORY, 50),
  event_id: "$second-create",
};

describe("m.room.create is set once per room", () => {
  it("ignores a second create in a later timeline, with a log line; version and creators unchanged", () => {
    const { rooms, emit, warnings } = setup();
    emit(batch({ "!r:hs": joined({ state: [CREATE_V12, member(ALICE, "join"), member(MALLORY, "join")] }) }));
    const before = rooms.get("!r:hs").getSnapshot().state;
    expect(before.powerLevels.userLevel(ALICE)).toBe(Infinity);
    expect(before.powerLevels.userLevel(MALLORY)).toBe(0);

    emit(batch({ "!r:hs": joined({ events: [SECOND_CREATE, msg("$m", 60)] }) }));
    const after = rooms.get("!r:hs").getSnapshot().state;
    expect(after.get("m.room.create")).toMatchObject({ event_id: CREATE_V12.event_id });
    expect(after.powerLevels.userLevel(MALLORY)).toBe(0);
    expect(after.powerLevels.userLevel(ALICE)).toBe(Infinity);
    expect([...after.powerLevels.creators]).toEqual([ALICE]);
    expect(warnings).toEqual([
      "!r:hs: Ignoring m.room.create $second-create: the room's create event is already $m.room.create--1",
    ]);
  });

  it("ignores a create with another room version in later state", () => {
    const { rooms, emit } = setup();
    emit(batch({ "!r:hs": joined({ state: [CREATE_V12] }) }));
    const downgrade = { ...state("m.room.create", "", { room_version: "10", creator: BOB }, BOB, 70) };
    emit(batch({ "!r:hs": joined({ state: [downgrade] }) }));
    const s = rooms.get("!r:hs").getSnapshot().state;
    expect(s.rules.creatorsHaveInfinitePower).toBe(true);
    expect(s.powerLevels.userLevel(ALICE)).toBe(Infinity);
    expect(s.powerLevels.userLevel(BOB)).toBe(0);
  });

  it("keeps the first of two creates in one batch, and takes a repeat of the same event quietly", () => {
    const warnings: string[] = [];
    const s = RoomState.empty().withEvents([CREATE_V12, SECOND_CREATE], (m) => warnings.push(m));
    expect(s.get("m.room.create")).toMatchObject({ event_id: CREATE_V12.event_id });
    expect(warnings).toHaveLength(1);
    const again = s.withEvents([CREATE_V12], (m) => warnings.push(m));
    expect(again).toBe(s);
    expect(warnings).toHaveLength(1);
  });

  it("lets the real create replace an invite's stripped one (no event id), but not the other way", () => {
    const stripped = {
      type: "m.room.create",
      state_key: "",
      sender: MALLORY,
      content: { room_version: "12" },
    };
    const invited = RoomState.empty().withEvents([stripped]);
    const joinedState = invited.withEvents([CREATE_V12]);
    expect(joinedState.get("m.room.create")?.sender).toBe(ALICE);
    expect(joinedState.withEvents([stripped], () => undefined).get("m.room.create")?.sender).toBe(ALICE);
  });
});

describe("private receipts", () => {
  it("keeps the user's own m.read.private and drops everyone else's", () => {
    const { rooms, emit } = setup();
    emit(
      batch({
        "!r:hs": joined({
          events: [msg("$1", 1), msg("$2", 2)],
          ephemeral: [
            {
              type: "m.receipt",
              content: {
                $1: { "m.read.private": { [BOB]: { ts: 5 } }, "m.read": { [BOB]: { ts: 5 } } },
                $2: { "m.read.private": { [ME]: { ts: 7 }, [ALICE]: { ts: 8 } } },
              },
            },
          ],
        }),
      }),
    );
    const receipts = rooms.get("!r:hs").getSnapshot().receipts;
    expect(receipts.of(ME, "m.read.private")?.eventId).toBe("$2");
    expect(receipts.of(BOB, "m.read.private")).toBeUndefined();
    expect(receipts.of(ALICE, "m.read.private")).toBeUndefined();
    expect(receipts.of(BOB, "m.read")?.eventId).toBe("$1");
    expect(receipts.byEvent("$2").map((r) => `${r.userId} ${r.type}`)).toEqual([`${ME} m.read.private`]);
  });
});
