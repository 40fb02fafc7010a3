/**
 * The redaction algorithm, table-driven from the spec's per-version lists:
 * which top-level keys and which content keys each event type keeps in
 * versions 1, 6, 8, 9, 10, 11 and 12; redacted_because; idempotence.
 */
import { describe, expect, it } from "vitest";
import type { ClientEvent, ClientEventWithoutRoomId } from "../../src/api/types/events";
import {
  isRedacted,
  keptTopLevelKeys,
  redactContent,
  redactEvent,
  redactedEventId,
} from "../../src/models/redaction";
import { roomVersionRules } from "../../src/models/room-versions";

const FULL_CONTENT: Record<string, Record<string, unknown>> = {
  "m.room.member": {
    membership: "join",
    displayname: "Alice",
    avatar_url: "mxc://a/b",
    join_authorised_via_users_server: "@srv:hs",
    third_party_invite: { display_name: "alice", signed: { mxid: "@a:hs", token: "t", signatures: {} } },
  },
  "m.room.create": {
    creator: "@a:hs",
    room_version: "1",
    "m.federate": false,
    predecessor: { room_id: "!old" },
  },
  "m.room.join_rules": {
    join_rule: "restricted",
    allow: [{ type: "m.room_membership", room_id: "!s" }],
    extra: 1,
  },
  "m.room.power_levels": {
    ban: 50,
    events: {},
    events_default: 0,
    invite: 0,
    kick: 50,
    redact: 50,
    state_default: 50,
    users: {},
    users_default: 0,
    notifications: { room: 50 },
    historical: 100,
  },
  "m.room.aliases": { aliases: ["#a:hs"] },
  "m.room.history_visibility": { history_visibility: "shared", x: 1 },
  "m.room.redaction": { redacts: "$x", reason: "spam" },
  "m.room.message": { msgtype: "m.text", body: "secret" },
  "m.room.topic": { topic: "t" },
};

type Row = [version: string, type: string, kept: string[]];
const CONTENT_TABLE: Row[] = [
  ["1", "m.room.member", ["membership"]],
  ["9", "m.room.member", ["membership", "join_authorised_via_users_server"]],
  ["11", "m.room.member", ["membership", "join_authorised_via_users_server", "third_party_invite"]],
  ["1", "m.room.create", ["creator"]],
  ["10", "m.room.create", ["creator"]],
  ["11", "m.room.create", ["creator", "room_version", "m.federate", "predecessor"]],
  ["12", "m.room.create", ["creator", "room_version", "m.federate", "predecessor"]],
  ["7", "m.room.join_rules", ["join_rule"]],
  ["8", "m.room.join_rules", ["join_rule", "allow"]],
  [
    "1",
    "m.room.power_levels",
    ["ban", "events", "events_default", "kick", "redact", "state_default", "users", "users_default"],
  ],
  [
    "11",
    "m.room.power_levels",
    [
      "ban",
      "events",
      "events_default",
      "invite",
      "kick",
      "redact",
      "state_default",
      "users",
      "users_default",
    ],
  ],
  ["5", "m.room.aliases", ["aliases"]],
  ["6", "m.room.aliases", []],
  ["1", "m.room.history_visibility", ["history_visibility"]],
  ["10", "m.room.redaction", []],
  ["11", "m.room.redaction", ["redacts"]],
  ["1", "m.room.message", []],
  ["12", "m.room.topic", []],
];

describe("redactContent", () => {
  it.each(CONTENT_TABLE)("v%s %s keeps %j", (version, type, kept) => {
    const out = redactContent(type, FULL_CONTENT[type], roomVersionRules(version));
    expect(Object.keys(out).sort()).toEqual([...kept].sort());
  });

  it("keeps only the signed block of a v11 third_party_invite", () => {
    const out = redactContent("m.room.member", FULL_CONTENT["m.room.member"], roomVersionRules("11"));
    expect(out["third_party_invite"]).toEqual({ signed: { mxid: "@a:hs", token: "t", signatures: {} } });
  });

  it("returns empty content for non-object content", () => {
    expect(redactContent("m.room.member", "garbage", roomVersionRules("11"))).toEqual({});
  });
});

describe("redactEvent", () => {
  const redaction: ClientEventWithoutRoomId = {
    event_id: "$r",
    type: "m.room.redaction",
    sender: "@mod:hs",
    origin_server_ts: 2,
    content: { redacts: "$e", reason: "spam" },
    redacts: "$e",
    unsigned: { age: 1 },
  };
  const event = {
    event_id: "$e",
    room_id: "!r:hs",
    type: "m.room.member",
    sender: "@a:hs",
    state_key: "@a:hs",
    origin_server_ts: 1,
    content: { membership: "join", displayname: "A" },
    origin: "hs",
    membership: "join",
    prev_state: [],
    unsigned: { age: 5, transaction_id: "m1.1", prev_content: { membership: "invite" }, "m.relations": {} },
    extra_top: "drop me",
  } as ClientEvent & Record<string, unknown>;

  it("v1-10 keeps origin, membership and prev_state; v11 drops them", () => {
    const v1 = redactEvent(event, redaction, roomVersionRules("10")) as unknown as Record<string, unknown>;
    expect(v1["origin"]).toBe("hs");
    expect(v1["membership"]).toBe("join");
    expect(v1["extra_top"]).toBeUndefined();
    const v11 = redactEvent(event, redaction, roomVersionRules("11")) as unknown as Record<string, unknown>;
    expect(Object.keys(v11).sort()).toEqual(
      [
        "content",
        "event_id",
        "origin_server_ts",
        "room_id",
        "sender",
        "state_key",
        "type",
        "unsigned",
      ].sort(),
    );
    expect(keptTopLevelKeys(roomVersionRules("11"))).not.toContain("origin");
  });

  it("sets redacted_because and keeps only delivery fields of unsigned", () => {
    const out = redactEvent(event, redaction, roomVersionRules("11"));
    expect(isRedacted(out)).toBe(true);
    expect(isRedacted(event)).toBe(false);
    expect(out.unsigned).toEqual({
      age: 5,
      transaction_id: "m1.1",
      redacted_because: { ...redaction, unsigned: undefined },
    });
    expect(out.content).toEqual({ membership: "join" });
    expect(event.content).toEqual({ membership: "join", displayname: "A" });
  });

  it("is idempotent", () => {
    for (const v of ["1", "9", "11", "12"]) {
      const once = redactEvent(event, redaction, roomVersionRules(v));
      expect(redactEvent(once, redaction, roomVersionRules(v))).toEqual(once);
    }
  });

  it("finds the redacted event id in content (v11) or at the top level", () => {
    expect(redactedEventId(redaction)).toBe("$e");
    expect(redactedEventId({ redacts: "$old", content: {} })).toBe("$old");
    expect(redactedEventId({ content: { redacts: 5 } })).toBeUndefined();
  });
});
