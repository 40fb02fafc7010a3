/**
 * The room version table: each rule switches on at the version the spec
 * says, unknown versions fall back sensibly, and history markers are honoured
 * only where the version supports them or from a creator (SPEC §5).
 */
import { describe, expect, it } from "vitest";
import { roomCreators, roomVersionOf } from "../../src/models/creators";
import { isVersionMarkerHonoured, roomVersionRules, supportsJoinRule } from "../../src/models/room-versions";

describe("roomVersionRules", () => {
  it.each([
    ["knocking", 7],
    ["restrictedJoin", 8],
    ["redactionKeepsJoinAllow", 8],
    ["redactionKeepsAuthorisingUser", 9],
    ["integerPowerLevels", 10],
    ["knockRestricted", 10],
    ["creatorsHaveInfinitePower", 12],
  ] as const)("%s starts at version %i", (flag, from) => {
    for (let v = 1; v <= 12; v++) expect(roomVersionRules(String(v))[flag]).toBe(v >= from);
  });

  it("switches redaction algorithm and creator source at 11", () => {
    expect(roomVersionRules("10").redaction).toBe("v1");
    expect(roomVersionRules("11").redaction).toBe("v11");
    expect(roomVersionRules("10").creatorFromContent).toBe(true);
    expect(roomVersionRules("11").creatorFromContent).toBe(false);
    expect(roomVersionRules("5").redactionKeepsAliases).toBe(true);
    expect(roomVersionRules("6").redactionKeepsAliases).toBe(false);
  });

  it("treats a missing version as 1 and unknown ones as fallbacks", () => {
    expect(roomVersionRules(undefined).version).toBe("1");
    expect(roomVersionRules("").known).toBe(true);
    const future = roomVersionRules("42");
    expect(future).toMatchObject({ known: false, creatorsHaveInfinitePower: true });
    expect(roomVersionRules("com.example.v1")).toMatchObject({
      known: false,
      redaction: "v11",
      creatorsHaveInfinitePower: false,
    });
    expect(roomVersionRules("__proto__").known).toBe(false);
  });

  it("supports join rules only in versions that have them", () => {
    expect(supportsJoinRule(roomVersionRules("6"), "knock")).toBe(false);
    expect(supportsJoinRule(roomVersionRules("7"), "knock")).toBe(true);
    expect(supportsJoinRule(roomVersionRules("9"), "knock_restricted")).toBe(false);
    expect(supportsJoinRule(roomVersionRules("10"), "knock_restricted")).toBe(true);
    expect(supportsJoinRule(roomVersionRules("1"), "invite")).toBe(true);
    expect(supportsJoinRule(roomVersionRules("12"), "bogus")).toBe(false);
  });
});

describe("version markers (SPEC §5)", () => {
  const creators = new Set(["@creator:hs"]);
  it("are honoured when the version supports them", () => {
    expect(isVersionMarkerHonoured(roomVersionRules("org.matrix.msc2716v3"), "@anyone:hs", creators)).toBe(
      true,
    );
  });
  it("are honoured from the room creator in any version", () => {
    expect(isVersionMarkerHonoured(roomVersionRules("10"), "@creator:hs", creators)).toBe(true);
  });
  it("are ignored otherwise", () => {
    expect(isVersionMarkerHonoured(roomVersionRules("10"), "@anyone:hs", creators)).toBe(false);
  });
  it("treat tombstones as supported by every version, MSC3946 predecessors by none", () => {
    for (const v of ["1", "10", "11", "12"]) {
      expect(isVersionMarkerHonoured(roomVersionRules(v), "@anyone:hs", creators, "tombstone")).toBe(true);
      expect(isVersionMarkerHonoured(roomVersionRules(v), "@anyone:hs", creators, "predecessor")).toBe(false);
      expect(isVersionMarkerHonoured(roomVersionRules(v), "@creator:hs", creators, "predecessor")).toBe(true);
    }
  });
});

describe("roomCreators", () => {
  it("reads creators per version from untrusted create events", () => {
    expect(roomVersionOf({ content: {} })).toBe("1");
    expect([
      ...roomCreators({ sender: "@s:hs", content: { creator: "@c:hs" } }, roomVersionRules("1")),
    ]).toEqual(["@c:hs"]);
    expect([...roomCreators({ sender: "@s:hs", content: {} }, roomVersionRules("1"))]).toEqual(["@s:hs"]);
    expect([
      ...roomCreators({ sender: "@s:hs", content: { creator: "@c:hs" } }, roomVersionRules("11")),
    ]).toEqual(["@s:hs"]);
    const v12 = { sender: "@s:hs", content: { additional_creators: ["@b:hs", "@b:hs", {}, "x"] } };
    expect([...roomCreators(v12, roomVersionRules("12"))]).toEqual(["@s:hs", "@b:hs"]);
    expect([...roomCreators(v12, roomVersionRules("11"))]).toEqual(["@s:hs"]);
    expect(roomCreators(null, roomVersionRules("12")).size).toBe(0);
  });
});
