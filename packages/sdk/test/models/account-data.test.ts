/**
 * Presence and account data guards: 'Bad presence value', presence events,
 * m.tag and m.ignored_user_list from untrusted JSON.
 */
import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/api/errors";
import {
  assertPresenceState,
  parseIgnoredUsers,
  parsePresenceEvent,
  parseTags,
} from "../../src/models/account-data";

describe("presence", () => {
  it.each(["offline", "online", "unavailable"])("accepts %s", (p) => {
    expect(() => assertPresenceState(p)).not.toThrow();
  });

  it.each(["busy", "", null, 1, "ONLINE"])("refuses %j with 'Bad presence value'", (p) => {
    expect(() => assertPresenceState(p)).toThrowError(new ApiError("INVALID_ARGUMENT", "Bad presence value"));
  });

  it("reads presence events and drops bad ones", () => {
    expect(
      parsePresenceEvent({
        sender: "@a:hs",
        type: "m.presence",
        content: { presence: "online", last_active_ago: 5, status_msg: "hi", currently_active: true },
      }),
    ).toEqual({
      userId: "@a:hs",
      presence: "online",
      lastActiveAgo: 5,
      statusMsg: "hi",
      currentlyActive: true,
    });
    expect(parsePresenceEvent({ sender: "@a:hs", content: { presence: "busy" } })).toBeUndefined();
    expect(parsePresenceEvent({ sender: "x", content: { presence: "online" } })).toBeUndefined();
    expect(
      parsePresenceEvent({ sender: "@a:hs", content: { presence: "offline", last_active_ago: -1 } }),
    ).toEqual({
      userId: "@a:hs",
      presence: "offline",
    });
  });
});

describe("account data", () => {
  it("reads tags with valid orders", () => {
    const tags = parseTags({
      tags: { "m.favourite": { order: 0.5 }, "u.work": { order: 7 }, "m.lowpriority": {}, bad: 3 },
    });
    expect(Object.fromEntries(tags)).toEqual({
      "m.favourite": { order: 0.5 },
      "u.work": {},
      "m.lowpriority": {},
    });
    expect(parseTags("x").size).toBe(0);
  });

  it("reads the ignored users list", () => {
    const content = JSON.parse('{"ignored_users":{"@a:hs":{},"__proto__":{},"nope":{}}}') as unknown;
    expect([...parseIgnoredUsers(content)]).toEqual(["@a:hs"]);
    expect(parseIgnoredUsers(null).size).toBe(0);
  });
});
