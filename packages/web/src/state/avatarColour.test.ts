/**
 * One avatar colour per person: the room list's direct chat row, the member
 * list's row and the timeline's sender avatar all colour the same person
 * the same way.
 */
import { describe, expect, it } from "vitest";
import { AVATAR_COLOURS, colourSlotOf, roomAvatarSeedOf } from "./avatarColour";

const ME = "@alice:example.org";
const BOB = "@bob:example.org";

function dm(members: Record<string, string>, isDirect = true) {
  return {
    roomId: "!dm:example.org",
    isDirect,
    members: new Map(Object.entries(members).map(([id, membership]) => [id, { membership }])),
  };
}

describe("avatar colour", () => {
  it("gives a person the same colour in the room list, member list and timeline", () => {
    // Member list and timeline seed by the user id (MemberPanel row.userId, MessageTile item.sender).
    const memberList = colourSlotOf(BOB);
    const timeline = colourSlotOf(BOB);
    const roomList = colourSlotOf(roomAvatarSeedOf(dm({ [ME]: "join", [BOB]: "join" }), ME));
    expect(roomList).toBe(memberList);
    expect(timeline).toBe(memberList);
    // The room id happens to hash elsewhere: the old seed gave bob another colour.
    expect(colourSlotOf("!dm:example.org")).not.toBe(memberList);
  });

  it("seeds a group room, or a chat with several others, by the room id", () => {
    expect(roomAvatarSeedOf(dm({ [ME]: "join", [BOB]: "join" }, false), ME)).toBe("!dm:example.org");
    expect(roomAvatarSeedOf(dm({ [ME]: "join", [BOB]: "join", "@carol:example.org": "join" }), ME)).toBe(
      "!dm:example.org",
    );
    expect(roomAvatarSeedOf(dm({ [ME]: "join", [BOB]: "invite" }), ME)).toBe(BOB);
    expect(roomAvatarSeedOf(dm({ [ME]: "join", [BOB]: "leave" }), ME)).toBe("!dm:example.org");
    expect(roomAvatarSeedOf(dm({ [ME]: "join", [BOB]: "join" }), null)).toBe("!dm:example.org");
  });

  it("is a stable slot within the stylesheet's colours", () => {
    for (const id of [ME, BOB, "!x:y", ""]) {
      const slot = colourSlotOf(id);
      expect(slot).toBe(colourSlotOf(id));
      expect(slot).toBeGreaterThanOrEqual(0);
      expect(slot).toBeLessThan(AVATAR_COLOURS);
    }
  });
});
