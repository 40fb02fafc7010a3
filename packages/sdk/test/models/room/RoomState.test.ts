/**
 * RoomState: an immutable (type, state_key) map. New values share nothing
 * mutable with old ones; derived members, power levels (v12 creators have
 * infinite power), space children and the SPEC §3 defaults.
 */
import { describe, expect, it } from "vitest";
import { ROOM_STATE_DEFAULTS, RoomState } from "../../../src/models/room/RoomState";
import { ALICE, BOB, member, state } from "../support/room-fixtures";

describe("RoomState", () => {
  it("returns itself when nothing is state, and a new value otherwise", () => {
    const empty = RoomState.empty();
    expect(
      empty.withEvents([
        { event_id: "$m", type: "m.room.message", sender: ALICE, origin_server_ts: 1, content: {} },
      ]),
    ).toBe(empty);
    const one = empty.withEvents([member(ALICE, "join")]);
    expect(one).not.toBe(empty);
    expect(empty.get("m.room.member", ALICE)).toBeUndefined();
    const two = one.withEvents([member(ALICE, "leave")]);
    expect(one.membershipOf(ALICE)).toBe("join");
    expect(two.membershipOf(ALICE)).toBe("leave");
  });

  it("uses the spec's defaults when the room has no such state", () => {
    const s = RoomState.empty();
    expect(ROOM_STATE_DEFAULTS).toEqual({
      joinRule: "invite",
      historyVisibility: "shared",
      guestAccess: "forbidden",
    });
    expect([s.joinRule, s.historyVisibility, s.guestAccess]).toEqual(["invite", "shared", "forbidden"]);
    const set = s.withEvents([
      state("m.room.join_rules", "", { join_rule: "public" }),
      state("m.room.history_visibility", "", { history_visibility: "joined" }),
      state("m.room.guest_access", "", { guest_access: "can_join" }),
      state("m.room.encryption", "", { algorithm: "m.megolm.v1.aes-sha2" }),
    ]);
    expect([set.joinRule, set.historyVisibility, set.guestAccess, set.isEncrypted]).toEqual([
      "public",
      "joined",
      "can_join",
      true,
    ]);
  });

  it("gives room version 12 creators infinite power and others their listed level", () => {
    const s = RoomState.empty().withEvents([
      state("m.room.create", "", { room_version: "12" }, ALICE),
      state("m.room.power_levels", "", { users: { [BOB]: 50 }, users_default: 0 }),
      member(ALICE, "join"),
      member(BOB, "join", { displayname: "Bob" }),
      member("@eve:hs", "ban"),
      member("@odd:hs", "dancing"),
    ]);
    expect(s.members.get(ALICE)?.powerLevel).toBe(Infinity);
    expect(s.members.get(BOB)).toMatchObject({ powerLevel: 50, name: "Bob", membership: "join" });
    expect(s.members.get("@eve:hs")?.membership).toBe("ban");
    expect(s.members.has("@odd:hs")).toBe(false);
    expect(s.memberCounts()).toEqual({ joined: 2, invited: 0 });
    expect(s.rules.version).toBe("12");
  });

  it("disambiguates members who share a display name", () => {
    const s = RoomState.empty().withEvents([
      member(ALICE, "join", { displayname: "Sam" }),
      member(BOB, "join", { displayname: "Sam" }),
    ]);
    expect(s.members.get(ALICE)?.name).toBe(`Sam (${ALICE})`);
  });

  it("lists a space's children with a via, and knows it is a space", () => {
    const s = RoomState.empty().withEvents([
      state("m.room.create", "", { type: "m.space" }),
      state("m.space.child", "!a:hs", { via: ["hs"] }),
      state("m.space.child", "!b:hs", {}),
      state("m.space.child", "__proto__", { via: ["hs"] }),
    ]);
    expect(s.isSpace).toBe(true);
    expect(s.spaceChildren).toEqual(["!a:hs", "__proto__"]);
  });
});
