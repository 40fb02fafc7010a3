/**
 * Room names per the spec's algorithm (name, alias, heroes with counts,
 * empty-room fallbacks), member name disambiguation, avatars, and m.direct.
 */
import { describe, expect, it } from "vitest";
import {
  addDirectRoom,
  directPartnerOf,
  directRoomIndex,
  isDirectInvite,
  parseDirect,
  removeDirectRoom,
} from "../../src/models/direct";
import {
  disambiguatedNames,
  joinNames,
  roomAvatarUrl,
  roomName,
  summaryFromMembers,
} from "../../src/models/room-name";

const ME = "@me:hs";
const names: Record<string, string> = { "@a:hs": "Alice", "@b:hs": "Bob", "@c:hs": "Carol", "@d:hs": "Dan" };
const memberName = (id: string) => names[id];
const summary = (heroes: unknown[], joined: number, invited = 0) => ({
  "m.heroes": heroes,
  "m.joined_member_count": joined,
  "m.invited_member_count": invited,
});

describe("roomName", () => {
  it.each([
    [
      "m.room.name wins",
      { nameContent: { name: "Lounge" }, canonicalAliasContent: { alias: "#l:hs" } },
      "named",
      "Lounge",
    ],
    [
      "an empty name falls through to the alias",
      { nameContent: { name: " " }, canonicalAliasContent: { alias: "#l:hs" } },
      "alias",
      "#l:hs",
    ],
    ["one hero", { summary: summary(["@a:hs"], 2) }, "heroes", "Alice"],
    ["two heroes", { summary: summary(["@a:hs", "@b:hs"], 3) }, "heroes", "Alice and Bob"],
    [
      "three heroes",
      { summary: summary(["@a:hs", "@b:hs", "@c:hs"], 3, 1) },
      "heroes",
      "Alice, Bob and Carol",
    ],
    [
      "more members than heroes",
      { summary: summary(["@a:hs", "@b:hs", "@c:hs"], 6) },
      "heroes",
      "Alice, Bob, Carol and 2 others",
    ],
    ["one other", { summary: summary(["@a:hs", "@b:hs"], 4) }, "heroes", "Alice, Bob and 1 other"],
    ["the user is excluded from heroes", { summary: summary([ME, "@a:hs"], 2) }, "heroes", "Alice"],
    ["unknown names show the user id", { summary: summary(["@zed:hs"], 2) }, "heroes", "@zed:hs"],
    ["alone with no heroes", { summary: summary([], 1) }, "empty", "Empty room"],
    [
      "alone after others left",
      { summary: summary(["@a:hs", "@b:hs"], 1) },
      "empty_was",
      "Empty room (was Alice and Bob)",
    ],
    ["no summary at all", {}, "empty", "Empty room"],
    ["garbage summary", { summary: { "m.heroes": "x", "m.joined_member_count": -3 } }, "empty", "Empty room"],
  ])("%s", (_name, input, kind, expected) => {
    expect(roomName({ userId: ME, memberName, ...input })).toEqual({ kind, name: expected });
  });

  it("uses member-list counts when the summary lacks them", () => {
    expect(
      roomName({ userId: ME, memberName, summary: { "m.heroes": ["@a:hs"] }, joinedMemberCount: 3 }).name,
    ).toBe("Alice and 1 other");
  });

  it("joins names", () => {
    expect(joinNames([])).toBe("");
    expect(joinNames(["A", "B", "C", "D"])).toBe("A, B, C and D");
  });
});

describe("summaryFromMembers", () => {
  it("names current members first, then former ones, and counts joined and invited", () => {
    const members = [
      { userId: ME, membership: "join" },
      { userId: "@a:hs", membership: "join" },
      { userId: "@b:hs", membership: "leave" },
      { userId: "@c:hs", membership: "invite" },
    ];
    const summary = summaryFromMembers(members, ME);
    expect(summary).toEqual({
      "m.heroes": ["@a:hs", "@c:hs"],
      "m.joined_member_count": 2,
      "m.invited_member_count": 1,
    });
    expect(roomName({ userId: ME, memberName, summary }).name).toBe("Alice and Carol");
    const alone = summaryFromMembers(
      [
        { userId: ME, membership: "join" },
        { userId: "@b:hs", membership: "ban" },
      ],
      ME,
    );
    expect(roomName({ userId: ME, memberName, summary: alone }).name).toBe("Empty room (was Bob)");
  });

  it("names at most five heroes", () => {
    const many = Array.from({ length: 9 }, (_, i) => ({ userId: `@u${i}:hs`, membership: "join" }));
    const summary = summaryFromMembers(many, ME);
    expect(summary["m.heroes"]).toHaveLength(5);
    expect(roomName({ userId: ME, summary }).name).toBe(
      "@u0:hs, @u1:hs, @u2:hs, @u3:hs, @u4:hs and 3 others",
    );
  });
});

describe("disambiguatedNames", () => {
  it("uses the user id without a display name and disambiguates duplicates among joined and invited", () => {
    const out = disambiguatedNames([
      { userId: "@a:hs", displayName: "Sam", membership: "join" },
      { userId: "@b:hs", displayName: "Sam", membership: "invite" },
      { userId: "@c:hs", displayName: "Lee", membership: "join" },
      { userId: "@d:hs", displayName: "Lee", membership: "leave" },
      { userId: "@e:hs", displayName: "", membership: "join" },
      { userId: "@f:hs", displayName: 42, membership: "join" },
      { userId: "@g:hs", displayName: "@a:hs", membership: "join" },
    ]);
    expect(Object.fromEntries(out)).toEqual({
      "@a:hs": "Sam (@a:hs)",
      "@b:hs": "Sam (@b:hs)",
      "@c:hs": "Lee",
      "@d:hs": "Lee",
      "@e:hs": "@e:hs",
      "@f:hs": "@f:hs",
      "@g:hs": "@a:hs (@g:hs)",
    });
  });
});

describe("roomAvatarUrl", () => {
  it("prefers the room's avatar, then the DM partner's", () => {
    expect(roomAvatarUrl({ url: "mxc://hs/room" }, "mxc://hs/user")).toBe("mxc://hs/room");
    expect(roomAvatarUrl({ url: "" }, "mxc://hs/user")).toBe("mxc://hs/user");
    expect(roomAvatarUrl(undefined, 7)).toBeUndefined();
  });
});

describe("m.direct", () => {
  const content = JSON.parse(
    '{"@a:hs":["!1:hs","!2:hs","!1:hs",5],"@b:hs":"!3:hs","bad":["!4:hs"],"__proto__":["!5:hs"],"@c:hs":["!2:hs"]}',
  ) as unknown;

  it("validates the untrusted shape", () => {
    const parsed = parseDirect(content);
    expect(Object.fromEntries(parsed)).toEqual({ "@a:hs": ["!1:hs", "!2:hs"], "@c:hs": ["!2:hs"] });
    expect(parseDirect(null).size).toBe(0);
    expect(directRoomIndex(parsed).get("!2:hs")).toBe("@a:hs");
    expect(directPartnerOf(content, "!1:hs")).toBe("@a:hs");
    expect(directPartnerOf(content, "!5:hs")).toBeUndefined();
  });

  it("adds and removes rooms as new contents", () => {
    const added = addDirectRoom({ "@a:hs": ["!1:hs"] }, "@b:hs", "!1:hs");
    expect(added).toEqual({ "@b:hs": ["!1:hs"] });
    expect(addDirectRoom(undefined, "@a:hs", "!9:hs")).toEqual({ "@a:hs": ["!9:hs"] });
    expect(removeDirectRoom({ "@a:hs": ["!1:hs", "!2:hs"], "@b:hs": ["!1:hs"] }, "!1:hs")).toEqual({
      "@a:hs": ["!2:hs"],
    });
  });

  it("recognises DM invites", () => {
    expect(isDirectInvite({ membership: "invite", is_direct: true })).toBe(true);
    expect(isDirectInvite({ membership: "join", is_direct: true })).toBe(false);
    expect(isDirectInvite({ membership: "invite", is_direct: "yes" })).toBe(false);
  });
});
