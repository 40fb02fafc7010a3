/**
 * The push rule evaluator against a table of cases from the spec's text
 * (conditions, glob matching, dotted paths, and the default ruleset).
 */
import { describe, expect, it } from "vitest";
import { defaultRules } from "../../src/userdata/push/default-rules";
import { conditionMatches, evaluatePush, memberCountMatches } from "../../src/userdata/push/evaluator";
import type { PushEvalContext } from "../../src/userdata/push/evaluator";
import { toLevel } from "../../src/userdata/push/notifications";
import { globMatches, globMatchesWord, splitDottedPath, valueAtPath } from "../../src/userdata/push/glob";
import type { PushCondition, PushRuleset } from "../../src/userdata/wire-types";

const ME = "@alice:example.org";

function ctx(over: Partial<PushEvalContext> = {}): PushEvalContext {
  return { userId: ME, memberCount: 5, senderPowerLevel: 0, notificationLevels: {}, ...over };
}

function msg(body: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: "m.room.message",
    sender: "@bob:example.org",
    room_id: "!r:example.org",
    event_id: "$e",
    content: { msgtype: "m.text", body, ...extra },
  };
}

describe("glob matching", () => {
  const cases: Array<[string, string, boolean]> = [
    ["m.room.message", "m.room.message", true],
    ["m.room.*", "m.room.message", true],
    ["m.room.*", "m.call.invite", false],
    ["m.room.?essage", "m.room.message", true],
    ["m.room.?essage", "m.room.essage", false],
    ["M.ROOM.MESSAGE", "m.room.message", true],
    ["m.room", "m.room.message", false],
    ["*", "", true],
    ["a.b", "aXb", false],
    ["[abc]", "[abc]", true],
  ];
  it.each(cases)("glob %j against %j -> %s", (glob, value, expected) => {
    expect(globMatches(glob, value)).toBe(expected);
  });

  const words: Array<[string, string, boolean]> = [
    ["cake", "I like cake!", true],
    ["cake", "pancakes for all", false],
    ["cake*lie", "the cake is a lie", true],
    ["alice", "hey Alice, look", true],
    ["alice", "malice aforethought", false],
    ["@room", "hello @room", true],
    ["", "anything", false],
  ];
  it.each(words)("word glob %j in %j -> %s", (glob, value, expected) => {
    expect(globMatchesWord(glob, value)).toBe(expected);
  });

  it("matches hostile patterns against huge values without backtracking", () => {
    // A backtracking matcher never returns on these: the test's own timeout
    // is the failure, no clock needed.
    expect(globMatches("*a*a*a*a*a*a*a*a*b", "a".repeat(100_000))).toBe(false);
    expect(globMatchesWord("*a*a*a*a*a*b", "a".repeat(50_000))).toBe(false);
  });
});

describe("dotted paths", () => {
  it("splits on unescaped dots and unescapes \\. and \\\\", () => {
    expect(splitDottedPath("content.m\\.relates_to.rel_type")).toEqual([
      "content",
      "m.relates_to",
      "rel_type",
    ]);
    expect(splitDottedPath("content.a\\\\b")).toEqual(["content", "a\\b"]);
    expect(splitDottedPath("content.a\\b")).toEqual(["content", "a\\b"]);
  });
  it("reads own properties only", () => {
    const event = { content: { "m.relates_to": { rel_type: "m.replace" } } };
    expect(valueAtPath(event, "content.m\\.relates_to.rel_type")).toBe("m.replace");
    expect(valueAtPath(event, "content.m.relates_to.rel_type")).toBeUndefined();
    expect(valueAtPath(event, "content.constructor")).toBeUndefined();
    expect(valueAtPath(event, "content.__proto__")).toBeUndefined();
  });
});

describe("conditions", () => {
  const event = msg("Hello Alice", {
    "m.mentions": { user_ids: [ME], room: true },
    count: 3,
    flag: null,
    ratio: 1.5,
  });
  const cases: Array<[string, PushCondition, Partial<PushEvalContext>, boolean]> = [
    ["event_match on type", { kind: "event_match", key: "type", pattern: "m.room.message" }, {}, true],
    ["event_match is whole-value", { kind: "event_match", key: "type", pattern: "m.room" }, {}, false],
    [
      "event_match on body is word-based",
      { kind: "event_match", key: "content.body", pattern: "alice" },
      {},
      true,
    ],
    [
      "event_match ignores non-strings",
      { kind: "event_match", key: "content.count", pattern: "3" },
      {},
      false,
    ],
    ["event_match on a missing key", { kind: "event_match", key: "content.nope", pattern: "*" }, {}, false],
    ["event_match without pattern", { kind: "event_match", key: "type" }, {}, false],
    [
      "property_is boolean",
      { kind: "event_property_is", key: "content.m\\.mentions.room", value: true },
      {},
      true,
    ],
    [
      "property_is is typed",
      { kind: "event_property_is", key: "content.m\\.mentions.room", value: "true" },
      {},
      false,
    ],
    ["property_is integer", { kind: "event_property_is", key: "content.count", value: 3 }, {}, true],
    ["property_is null", { kind: "event_property_is", key: "content.flag", value: null }, {}, true],
    [
      "property_is ignores floats",
      { kind: "event_property_is", key: "content.ratio", value: 1.5 },
      {},
      false,
    ],
    [
      "property_is on a missing key",
      { kind: "event_property_is", key: "content.nope", value: null },
      {},
      false,
    ],
    [
      "property_contains",
      { kind: "event_property_contains", key: "content.m\\.mentions.user_ids", value: ME },
      {},
      true,
    ],
    [
      "property_contains other",
      { kind: "event_property_contains", key: "content.m\\.mentions.user_ids", value: "@x:y" },
      {},
      false,
    ],
    [
      "property_contains non-array",
      { kind: "event_property_contains", key: "content.body", value: "Hello" },
      {},
      false,
    ],
    ["display name word", { kind: "contains_display_name" }, { displayName: "Alice" }, true],
    ["display name inside a word", { kind: "contains_display_name" }, { displayName: "Ali" }, false],
    ["no display name", { kind: "contains_display_name" }, {}, false],
    ["member count ==", { kind: "room_member_count", is: "5" }, {}, true],
    ["member count <", { kind: "room_member_count", is: "<5" }, {}, false],
    ["member count >=", { kind: "room_member_count", is: ">=5" }, {}, true],
    [
      "sender permission default 50",
      { kind: "sender_notification_permission", key: "room" },
      { senderPowerLevel: 50 },
      true,
    ],
    [
      "sender permission too low",
      { kind: "sender_notification_permission", key: "room" },
      { senderPowerLevel: 49 },
      false,
    ],
    [
      "sender permission custom level",
      { kind: "sender_notification_permission", key: "room" },
      { senderPowerLevel: 50, notificationLevels: { room: 75 } },
      false,
    ],
    ["unknown kinds never match", { kind: "org.example.always" }, {}, false],
  ];
  it.each(cases)("%s", (_name, cond, over, expected) => {
    expect(conditionMatches(cond, event, ctx(over))).toBe(expected);
  });

  it.each([
    ["2", 2, true],
    ["==2", 3, false],
    ["<2", 1, true],
    [">2", 2, false],
    ["<=2", 2, true],
    [">=3", 2, false],
    ["two", 2, false],
    ["=2", 2, false],
  ] as Array<[string, number, boolean]>)(
    "room_member_count is %j with %d members -> %s",
    (is, n, expected) => {
      expect(memberCountMatches(is, n)).toBe(expected);
    },
  );
});

describe("the default ruleset", () => {
  const rules: PushRuleset = defaultRules(ME);
  const run = (event: Record<string, unknown>, over: Partial<PushEvalContext> = {}) =>
    evaluatePush(rules, event, ctx(over));

  it("lists the spec's rules in order", () => {
    expect(rules.override.map((r) => r.rule_id)).toEqual([
      ".m.rule.master",
      ".m.rule.suppress_notices",
      ".m.rule.invite_for_me",
      ".m.rule.member_event",
      ".m.rule.is_user_mention",
      ".m.rule.contains_display_name",
      ".m.rule.is_room_mention",
      ".m.rule.roomnotif",
      ".m.rule.tombstone",
      ".m.rule.reaction",
      ".m.rule.room.server_acl",
      ".m.rule.suppress_edits",
    ]);
    expect(rules.content.map((r) => [r.rule_id, r.pattern])).toEqual([
      [".m.rule.contains_user_name", "alice"],
    ]);
    expect(rules.underride.map((r) => r.rule_id)).toEqual([
      ".m.rule.call",
      ".m.rule.encrypted_room_one_to_one",
      ".m.rule.room_one_to_one",
      ".m.rule.message",
      ".m.rule.encrypted",
    ]);
  });

  it.each([
    [
      "a group message notifies without sound",
      msg("hi"),
      {},
      { notify: true, highlight: false, sound: undefined },
    ],
    [
      "a 1:1 message notifies with sound",
      msg("hi"),
      { memberCount: 2 },
      { notify: true, highlight: false, sound: "default" },
    ],
    [
      "a notice is silent",
      { ...msg("bot"), content: { msgtype: "m.notice", body: "bot" } },
      {},
      { notify: false },
    ],
    [
      "a user mention highlights",
      msg("yo", { "m.mentions": { user_ids: [ME] } }),
      {},
      { notify: true, highlight: true },
    ],
    ["the localpart highlights", msg("ping alice please"), {}, { notify: true, highlight: true }],
    [
      "the display name highlights",
      msg("hey Wonderland"),
      { displayName: "Wonderland" },
      { highlight: true },
    ],
    ["@room from a moderator highlights", msg("@room lunch"), { senderPowerLevel: 50 }, { highlight: true }],
    [
      "@room from a member does not",
      msg("@room lunch"),
      { senderPowerLevel: 0 },
      { notify: true, highlight: false },
    ],
    [
      "an m.mentions room mention needs permission",
      msg("all", { "m.mentions": { room: true } }),
      { senderPowerLevel: 100 },
      { highlight: true },
    ],
    [
      "an edit is silent",
      msg("* fixed", { "m.relates_to": { rel_type: "m.replace", event_id: "$x" } }),
      {},
      { notify: false },
    ],
    ["a reaction is silent", { ...msg(""), type: "m.reaction", content: {} }, {}, { notify: false }],
    [
      "an invite for me rings the default sound",
      { ...msg(""), type: "m.room.member", state_key: ME, content: { membership: "invite" } },
      {},
      { notify: true, sound: "default" },
    ],
    [
      "someone else's join is silent",
      { ...msg(""), type: "m.room.member", state_key: "@c:x", content: { membership: "join" } },
      {},
      { notify: false },
    ],
    [
      "a call invite rings",
      { ...msg(""), type: "m.call.invite", content: {} },
      {},
      { notify: true, sound: "ring" },
    ],
    [
      "an encrypted 1:1 event sounds",
      { ...msg(""), type: "m.room.encrypted", content: {} },
      { memberCount: 2 },
      { sound: "default" },
    ],
    [
      "an encrypted group event notifies",
      { ...msg(""), type: "m.room.encrypted", content: {} },
      {},
      { notify: true, sound: undefined },
    ],
    [
      "a tombstone highlights",
      { ...msg(""), type: "m.room.tombstone", state_key: "", content: { body: "moved" } },
      {},
      { notify: true, highlight: true },
    ],
    [
      "a custom event type does not notify",
      { ...msg(""), type: "org.example.x", content: {} },
      {},
      { notify: false },
    ],
  ] as Array<[string, Record<string, unknown>, Partial<PushEvalContext>, Record<string, unknown>]>)(
    "%s",
    (_name, event, over, expected) => {
      expect(run(event, over)).toMatchObject(expected);
    },
  );

  it("silences everything when the master rule is enabled", () => {
    const muted: PushRuleset = { ...rules, override: rules.override.map((r) => ({ ...r, enabled: true })) };
    expect(evaluatePush(muted, msg("ping alice"), ctx())).toMatchObject({
      notify: false,
      ruleId: ".m.rule.master",
    });
  });

  it("applies room and sender rules by id, before underrides", () => {
    const custom: PushRuleset = {
      ...rules,
      room: [{ rule_id: "!r:example.org", default: false, enabled: true, actions: [] }],
    };
    expect(evaluatePush(custom, msg("hi"), ctx())).toMatchObject({ notify: false, ruleId: "!r:example.org" });
    const sender: PushRuleset = {
      ...rules,
      sender: [
        {
          rule_id: "@bob:example.org",
          default: false,
          enabled: true,
          actions: ["notify", { set_tweak: "highlight" }],
        },
      ],
    };
    expect(evaluatePush(sender, msg("hi"), ctx())).toMatchObject({ highlight: true });
  });
});

describe("power levels", () => {
  it.each([
    [50, 50],
    ["75", 75],
    [" -10 ", -10],
    [1.5, undefined],
    ["high", undefined],
    [null, undefined],
  ] as Array<[unknown, number | undefined]>)("reads %j as %j", (raw, level) => {
    expect(toLevel(raw)).toBe(level);
  });
});

describe("intentional mentions", () => {
  const rules = defaultRules(ME);
  it("ignores the legacy display-name, user-name and @room rules when the event has m.mentions", () => {
    const legacy = evaluatePush(
      rules,
      msg("alice: @room look", {}),
      ctx({ displayName: "alice", senderPowerLevel: 100 }),
    );
    expect(legacy.highlight).toBe(true);
    const withMentions = evaluatePush(
      rules,
      msg("alice: @room look", { "m.mentions": {} }),
      ctx({ displayName: "alice", senderPowerLevel: 100, memberCount: 5 }),
    );
    expect(withMentions.highlight).toBe(false);
    expect(withMentions.ruleId).not.toMatch(/contains_display_name|contains_user_name|roomnotif/);
  });

  it("still highlights an intentional mention of the user", () => {
    const out = evaluatePush(rules, msg("hey", { "m.mentions": { user_ids: [ME] } }), ctx());
    expect(out).toMatchObject({ highlight: true, ruleId: ".m.rule.is_user_mention" });
  });
});
