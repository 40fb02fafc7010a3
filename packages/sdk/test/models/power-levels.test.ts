/**
 * PowerLevels: the spec's defaults, per-type overrides, redaction and
 * moderation rules, the creator rules of versions 1-11 and 12 (MSC4289),
 * numeric strings in old rooms, and setUserLevel's refusals.
 */
import { describe, expect, it } from "vitest";
import { ModelError } from "../../src/models/errors";
import { PowerLevels } from "../../src/models/power-levels";

const ALICE = "@alice:hs";
const BOB = "@bob:hs";
const CAROL = "@carol:hs";

function create(
  version: string,
  sender = ALICE,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    type: "m.room.create",
    sender,
    state_key: "",
    content: { room_version: version, creator: sender, ...extra },
  };
}

describe("PowerLevels defaults", () => {
  it("uses the spec's defaults when the event omits every field", () => {
    const pl = PowerLevels.from({ content: {}, createEvent: create("10") });
    expect(pl.levels).toMatchObject({
      usersDefault: 0,
      eventsDefault: 0,
      stateDefault: 50,
      ban: 50,
      kick: 50,
      redact: 50,
      invite: 0,
    });
    expect(pl.notificationLevel("room")).toBe(50);
    expect(pl.userLevel(BOB)).toBe(0);
    expect(pl.canSendEvent(BOB, "m.room.message", false)).toBe(true);
    expect(pl.canSendEvent(BOB, "m.room.topic", true)).toBe(false);
  });

  it("without a power levels event: state_default 0 and the v1-11 creator has 100", () => {
    const pl = PowerLevels.from({ createEvent: create("11") });
    expect(pl.hasEvent).toBe(false);
    expect(pl.levels.stateDefault).toBe(0);
    expect(pl.userLevel(ALICE)).toBe(100);
    expect(pl.userLevel(BOB)).toBe(0);
    expect(pl.canSendEvent(BOB, "m.room.topic", true)).toBe(true);
    expect(pl.canBan(BOB)).toBe(false);
    expect(pl.canBan(ALICE, BOB)).toBe(true);
  });

  it("in v1-10 the creator comes from content.creator, in v11 from the sender", () => {
    const old = { type: "m.room.create", sender: BOB, content: { room_version: "5", creator: ALICE } };
    expect(PowerLevels.from({ createEvent: old }).userLevel(ALICE)).toBe(100);
    expect(PowerLevels.from({ createEvent: old }).userLevel(BOB)).toBe(0);
    const v11 = { ...old, content: { room_version: "11", creator: ALICE } };
    expect(PowerLevels.from({ createEvent: v11 }).userLevel(BOB)).toBe(100);
    expect(PowerLevels.from({ createEvent: v11 }).userLevel(ALICE)).toBe(0);
  });

  it("once a power levels event exists the v1-11 creator has only what users says", () => {
    const pl = PowerLevels.from({ content: { users: { [BOB]: 100 } }, createEvent: create("9") });
    expect(pl.userLevel(ALICE)).toBe(0);
    expect(pl.userLevel(BOB)).toBe(100);
  });

  it("applies per-event-type overrides for state and message events", () => {
    const content = {
      users: { [BOB]: 10 },
      events: { "m.room.name": 10, "m.sticker": 20 },
      events_default: 5,
    };
    const pl = PowerLevels.from({ content, createEvent: create("10") });
    expect(pl.canSendEvent(BOB, "m.room.name", true)).toBe(true);
    expect(pl.canSendEvent(BOB, "m.room.topic", true)).toBe(false);
    expect(pl.canSendEvent(BOB, "m.sticker", false)).toBe(false);
    expect(pl.canSendEvent(BOB, "m.room.message", false)).toBe(true);
    expect(pl.canSendEvent(CAROL, "m.room.message", false)).toBe(false);
  });
});

describe("PowerLevels redaction and moderation", () => {
  const content = {
    users: { [ALICE]: 100, [BOB]: 50, [CAROL]: 0 },
    redact: 50,
    kick: 50,
    ban: 60,
    invite: 10,
  };
  const pl = PowerLevels.from({ content, createEvent: create("10") });

  it("lets anyone redact their own events with the m.room.redaction events level", () => {
    expect(pl.canRedact(CAROL, CAROL)).toBe(true);
    expect(pl.canRedact(CAROL, BOB)).toBe(false);
    expect(pl.canRedact(BOB, CAROL)).toBe(true);
    const strict = PowerLevels.from({
      content: { ...content, events: { "m.room.redaction": 20 } },
      createEvent: create("10"),
    });
    expect(strict.canRedact(CAROL, CAROL)).toBe(false);
  });

  it("kicks and bans only with the level and only users below the actor", () => {
    expect(pl.canKick(BOB)).toBe(true);
    expect(pl.canKick(BOB, CAROL)).toBe(true);
    expect(pl.canKick(BOB, ALICE)).toBe(false);
    expect(pl.canBan(BOB, CAROL)).toBe(false);
    expect(pl.canBan(ALICE, BOB)).toBe(true);
    expect(pl.canInvite(CAROL)).toBe(false);
    expect(pl.canInvite(BOB)).toBe(true);
  });

  it("needs notifications.room (default 50) for @room", () => {
    expect(pl.canNotifyRoom(BOB)).toBe(true);
    expect(pl.canNotifyRoom(CAROL)).toBe(false);
    const custom = PowerLevels.from({
      content: { ...content, notifications: { room: 0 } },
      createEvent: create("10"),
    });
    expect(custom.canNotifyRoom(CAROL)).toBe(true);
    expect(custom.notificationLevel("org.example.other")).toBe(50);
  });
});

describe("PowerLevels in room version 12 (MSC4289)", () => {
  const createEvent = create("12", ALICE, { additional_creators: [BOB, "not-a-user", 7] });

  it("gives the sender and additional_creators infinite power, ignoring users", () => {
    const pl = PowerLevels.from({ content: { users: { [ALICE]: 0, [CAROL]: 100 } }, createEvent });
    expect(pl.userLevel(ALICE)).toBe(Infinity);
    expect(pl.userLevel(BOB)).toBe(Infinity);
    expect(pl.userLevel(CAROL)).toBe(100);
    expect([...pl.creators].sort()).toEqual([ALICE, BOB]);
    expect(pl.canBan(CAROL, ALICE)).toBe(false);
    expect(pl.canBan(ALICE, CAROL)).toBe(true);
  });

  it("refuses to demote a creator", () => {
    const pl = PowerLevels.from({ content: {}, createEvent });
    expect(() => pl.setUserLevel(ALICE, BOB, 50)).toThrowError(ModelError);
    expect(pl.whyCannotSetUserLevel(ALICE, BOB, null)).toMatch(/cannot be demoted/);
  });

  it("applies the rule to the unstable hydra version and to unknown newer versions", () => {
    expect(PowerLevels.from({ createEvent: create("org.matrix.hydra.11") }).userLevel(ALICE)).toBe(Infinity);
    expect(PowerLevels.from({ createEvent: create("13") }).userLevel(ALICE)).toBe(Infinity);
    expect(PowerLevels.from({ createEvent: create("11") }).userLevel(ALICE)).toBe(100);
  });
});

describe("PowerLevels parsing of untrusted content", () => {
  it("coerces numeric strings in versions before 10 and ignores them from 10", () => {
    const content = { users: { [BOB]: "75", [CAROL]: " +20 " }, state_default: "30", ban: "x" };
    const old = PowerLevels.from({ content, createEvent: create("9") });
    expect(old.userLevel(BOB)).toBe(75);
    expect(old.userLevel(CAROL)).toBe(20);
    expect(old.levels.stateDefault).toBe(30);
    expect(old.levels.ban).toBe(50);
    const v10 = PowerLevels.from({ content, createEvent: create("10") });
    expect(v10.userLevel(BOB)).toBe(0);
    expect(v10.levels.stateDefault).toBe(50);
  });

  it("ignores garbage without throwing, and keeps __proto__ as data", () => {
    const content = JSON.parse(
      '{"users":{"__proto__":99,"@x:hs":1.5,"@y:hs":null,"@z:hs":[1]},"events":"nope","kick":1e400,"users_default":{}}',
    ) as unknown;
    const pl = PowerLevels.from({ content, createEvent: "garbage" });
    expect(pl.userLevel("__proto__")).toBe(99);
    expect(pl.userLevel("@x:hs")).toBe(0);
    expect(pl.levels.kick).toBe(50);
    expect(pl.levels.events.size).toBe(0);
    expect(PowerLevels.from({ content: 42 }).levels.stateDefault).toBe(50);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });
});

describe("PowerLevels.setUserLevel", () => {
  const content = { users: { [ALICE]: 100, [BOB]: 50, [CAROL]: 0 }, users_default: 0, state_default: 50 };
  const pl = PowerLevels.from({ content, createEvent: create("10") });

  it("returns a new content with the level set, leaving the input untouched", () => {
    const next = pl.setUserLevel(ALICE, CAROL, 50);
    expect(next["users"]).toEqual({ [ALICE]: 100, [BOB]: 50, [CAROL]: 50 });
    expect(next["state_default"]).toBe(50);
    expect(content.users[CAROL]).toBe(0);
  });

  it("removes the entry for null", () => {
    expect(pl.setUserLevel(ALICE, BOB, null)["users"]).toEqual({ [ALICE]: 100, [CAROL]: 0 });
  });

  it("refuses changes above the actor's own level or to users not below them", () => {
    expect(() => pl.setUserLevel(BOB, CAROL, 60)).toThrow("Cannot grant a power level above your own");
    expect(() => pl.setUserLevel(BOB, ALICE, 0)).toThrow(/same or a higher level/);
    expect(() => pl.setUserLevel(CAROL, CAROL, 0)).toThrow("Not allowed to change power levels");
    expect(pl.setUserLevel(BOB, BOB, 10)["users"]).toMatchObject({ [BOB]: 10 });
    expect(() => pl.setUserLevel(ALICE, BOB, 1.5)).toThrow("Power levels must be integers");
  });

  it("keeps the v1-11 creator at 100 when creating the first power levels content", () => {
    const none = PowerLevels.from({ createEvent: create("10") });
    expect(none.setUserLevel(ALICE, BOB, 50)).toEqual({ users: { [ALICE]: 100, [BOB]: 50 } });
  });

  it("writes a __proto__ user id as an own key", () => {
    const next = pl.setUserLevel(ALICE, "__proto__", 5);
    const users = next["users"] as Record<string, unknown>;
    expect(Object.prototype.hasOwnProperty.call(users, "__proto__")).toBe(true);
    expect(JSON.stringify(users)).toContain('"__proto__":5');
  });
});
