/**
 * The join box parser: room ids, aliases, matrix.to links (encoded, with
 * via and an event) and matrix: URIs; anything else is null.
 */
import { describe, expect, it } from "vitest";
import { parseJoinTarget, parseUserLink, serverOf } from "./permalink";

describe("parseJoinTarget", () => {
  it("takes ids and aliases as they are", () => {
    expect(parseJoinTarget(" #lounge:example.org ")).toEqual({
      roomIdOrAlias: "#lounge:example.org",
      via: [],
    });
    expect(parseJoinTarget("!abc:example.org")).toEqual({ roomIdOrAlias: "!abc:example.org", via: [] });
  });

  it("reads matrix.to links with via servers and an event", () => {
    expect(parseJoinTarget("https://matrix.to/#/%23lounge%3Aexample.org?via=a.org&via=b.org")).toEqual({
      roomIdOrAlias: "#lounge:example.org",
      via: ["a.org", "b.org"],
    });
    expect(parseJoinTarget("https://matrix.to/#/!abc:example.org/$ev1?via=a.org")).toEqual({
      roomIdOrAlias: "!abc:example.org",
      via: ["a.org"],
      eventId: "$ev1",
    });
  });

  it("reads matrix: URIs", () => {
    expect(parseJoinTarget("matrix:r/lounge:example.org?via=a.org")).toEqual({
      roomIdOrAlias: "#lounge:example.org",
      via: ["a.org"],
    });
    expect(parseJoinTarget("matrix:roomid/abc:example.org/e/ev1")).toEqual({
      roomIdOrAlias: "!abc:example.org",
      via: [],
      eventId: "$ev1",
    });
  });

  it("rejects everything else", () => {
    for (const bad of [
      "",
      "lounge",
      "#nocolon",
      "https://example.org/#/#a:b",
      "https://matrix.to/#/@user:x",
      "matrix:u/a:b",
      "https://matrix.to/#/%E0%A4%A",
    ])
      expect(parseJoinTarget(bad)).toBeNull();
  });

  it("names the server of an id or alias", () => {
    expect(serverOf("#a:example.org:8448")).toBe("example.org:8448");
    expect(serverOf("!abc")).toBeUndefined();
  });
});

describe("parseUserLink", () => {
  it("reads user ids, matrix.to user links and matrix:u/ URIs", () => {
    expect(parseUserLink("@bob:example.org")).toBe("@bob:example.org");
    expect(parseUserLink("https://matrix.to/#/%40bob%3Aexample.org")).toBe("@bob:example.org");
    expect(parseUserLink("https://matrix.to/#/@bob:example.org?via=x")).toBe("@bob:example.org");
    expect(parseUserLink("matrix:u/bob:example.org?action=chat")).toBe("@bob:example.org");
  });

  it("refuses rooms and anything else", () => {
    expect(parseUserLink("https://matrix.to/#/#lounge:example.org")).toBeNull();
    expect(parseUserLink("https://example.org/@bob:example.org")).toBeNull();
    expect(parseUserLink("@bob")).toBeNull();
  });
});
