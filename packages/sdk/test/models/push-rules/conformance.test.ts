/**
 * Push rule conformance table: each row is a case drawn from the Matrix
 * spec's push notifications module (condition kinds, glob and dotted-path
 * rules, the predefined rules' behaviour for mentions, @room with and without
 * permission, DMs and groups, notices, edits, reactions, tombstones,
 * encrypted events and calls). Rules come from the spec's default ruleset
 * unless a row supplies its own.
 */
import { describe, expect, it } from "vitest";
import type { PushRule, PushRuleset } from "../../../src/api/types/push";
import { PowerLevels } from "../../../src/models/power-levels";
import type { PushContext, PushOutcome } from "../../../src/models/push-rules";
import { defaultPushRuleset, evaluatePushRules } from "../../../src/models/push-rules";

const ME = "@alice:example.org";
const MOD = "@mod:example.org";
const BOB = "@bob:example.org";
const ROOM = "!room:example.org";

const createEvent = {
  type: "m.room.create",
  sender: MOD,
  state_key: "",
  content: { room_version: "10", creator: MOD },
};
const powerLevels = PowerLevels.from({ content: { users: { [MOD]: 50, [BOB]: 0 } }, createEvent });
const openPowerLevels = PowerLevels.from({
  content: { users: { [MOD]: 50 }, notifications: { room: 0 } },
  createEvent,
});

const baseCtx: PushContext = {
  userId: ME,
  displayName: "Alice Liddell",
  memberCount: 5,
  powerLevels,
  roomId: ROOM,
};

function msg(body: string, extra: Record<string, unknown> = {}, sender = BOB): Record<string, unknown> {
  return {
    type: "m.room.message",
    sender,
    room_id: ROOM,
    event_id: "$e",
    content: { msgtype: "m.text", body, ...extra },
  };
}
function withRules(edit: (rules: Required<PushRuleset>) => void): Required<PushRuleset> {
  const rules = defaultPushRuleset(ME);
  edit(rules);
  return rules;
}
function userRule(id: string, actions: PushRule["actions"], extra: Partial<PushRule> = {}): PushRule {
  return { rule_id: id, default: false, enabled: true, actions, ...extra };
}

interface Case {
  event: unknown;
  ctx?: Partial<PushContext>;
  ruleset?: unknown;
  expect: PushOutcome;
}

const NOTIFY = { notify: true, highlight: false };
const SILENT = { notify: false, highlight: false };
const MENTION = { notify: true, highlight: true, sound: "default" };

const CASES: Record<string, Case> = {
  "a group message notifies without sound (.m.rule.message)": {
    event: msg("hi"),
    expect: { ...NOTIFY, ruleId: ".m.rule.message", kind: "underride" },
  },
  "a DM message notifies with the default sound (.m.rule.room_one_to_one)": {
    event: msg("hi"),
    ctx: { memberCount: 2 },
    expect: { ...NOTIFY, sound: "default", ruleId: ".m.rule.room_one_to_one", kind: "underride" },
  },
  "an encrypted DM event notifies with sound (.m.rule.encrypted_room_one_to_one)": {
    event: {
      type: "m.room.encrypted",
      sender: BOB,
      content: { algorithm: "m.megolm.v1.aes-sha2", ciphertext: "x" },
    },
    ctx: { memberCount: 2 },
    expect: { ...NOTIFY, sound: "default", ruleId: ".m.rule.encrypted_room_one_to_one", kind: "underride" },
  },
  "an encrypted group event notifies (.m.rule.encrypted)": {
    event: { type: "m.room.encrypted", sender: BOB, content: { ciphertext: "x" } },
    expect: { ...NOTIFY, ruleId: ".m.rule.encrypted", kind: "underride" },
  },
  "notices are suppressed (.m.rule.suppress_notices)": {
    event: msg("bot says Alice Liddell", { msgtype: "m.notice" }),
    expect: { ...SILENT, ruleId: ".m.rule.suppress_notices", kind: "override" },
  },
  "an invite for me notifies with sound (.m.rule.invite_for_me)": {
    event: { type: "m.room.member", sender: BOB, state_key: ME, content: { membership: "invite" } },
    expect: { ...NOTIFY, sound: "default", ruleId: ".m.rule.invite_for_me", kind: "override" },
  },
  "an invite for someone else is silent (.m.rule.member_event)": {
    event: {
      type: "m.room.member",
      sender: BOB,
      state_key: "@carol:example.org",
      content: { membership: "invite" },
    },
    expect: { ...SILENT, ruleId: ".m.rule.member_event", kind: "override" },
  },
  "a join is silent (.m.rule.member_event)": {
    event: { type: "m.room.member", sender: BOB, state_key: BOB, content: { membership: "join" } },
    expect: { ...SILENT, ruleId: ".m.rule.member_event", kind: "override" },
  },
  "m.mentions.user_ids naming me highlights (.m.rule.is_user_mention)": {
    event: msg("hey", { "m.mentions": { user_ids: [ME] } }),
    expect: { ...MENTION, ruleId: ".m.rule.is_user_mention", kind: "override" },
  },
  "m.mentions naming someone else does not highlight": {
    event: msg("hey", { "m.mentions": { user_ids: [BOB] } }),
    expect: { ...NOTIFY, ruleId: ".m.rule.message", kind: "underride" },
  },
  "with m.mentions present, my display name in the body does not highlight": {
    event: msg("Alice Liddell said", { "m.mentions": {} }),
    expect: { ...NOTIFY, ruleId: ".m.rule.message", kind: "underride" },
  },
  "without m.mentions, my display name highlights (.m.rule.contains_display_name)": {
    event: msg("ask Alice Liddell!"),
    expect: { ...MENTION, ruleId: ".m.rule.contains_display_name", kind: "override" },
  },
  "the display name is matched case-insensitively": {
    event: msg("ALICE LIDDELL?"),
    expect: { ...MENTION, ruleId: ".m.rule.contains_display_name", kind: "override" },
  },
  "the display name must be a whole word": {
    event: msg("MrAlice Liddellish"),
    expect: { ...NOTIFY, ruleId: ".m.rule.message", kind: "underride" },
  },
  "my localpart as a word highlights (.m.rule.contains_user_name)": {
    event: msg("hey alice, look"),
    expect: { ...MENTION, ruleId: ".m.rule.contains_user_name", kind: "content" },
  },
  "my localpart inside a word does not highlight": {
    event: msg("malice aforethought"),
    expect: { ...NOTIFY, ruleId: ".m.rule.message", kind: "underride" },
  },
  "m.mentions.room from a sender with permission highlights (.m.rule.is_room_mention)": {
    event: msg("all", { "m.mentions": { room: true } }, MOD),
    expect: { notify: true, highlight: true, ruleId: ".m.rule.is_room_mention", kind: "override" },
  },
  "m.mentions.room from a sender without permission does not highlight": {
    event: msg("all", { "m.mentions": { room: true } }, BOB),
    expect: { ...NOTIFY, ruleId: ".m.rule.message", kind: "underride" },
  },
  "m.mentions.room must be exactly true": {
    event: msg("all", { "m.mentions": { room: "true" } }, MOD),
    expect: { ...NOTIFY, ruleId: ".m.rule.message", kind: "underride" },
  },
  "legacy @room from a sender with permission highlights (.m.rule.roomnotif)": {
    event: msg("@room lunch", {}, MOD),
    expect: { notify: true, highlight: true, ruleId: ".m.rule.roomnotif", kind: "override" },
  },
  "legacy @room from a sender without permission does not highlight": {
    event: msg("@room lunch", {}, BOB),
    expect: { ...NOTIFY, ruleId: ".m.rule.message", kind: "underride" },
  },
  "legacy @room is ignored when the event has m.mentions": {
    event: msg("@room lunch", { "m.mentions": {} }, MOD),
    expect: { ...NOTIFY, ruleId: ".m.rule.message", kind: "underride" },
  },
  "notifications.room lowered to 0 lets anyone @room": {
    event: msg("@room lunch", {}, BOB),
    ctx: { powerLevels: openPowerLevels },
    expect: { notify: true, highlight: true, ruleId: ".m.rule.roomnotif", kind: "override" },
  },
  "without power levels sender_notification_permission never holds": {
    event: msg("@room lunch", {}, MOD),
    ctx: { powerLevels: undefined },
    expect: { ...NOTIFY, ruleId: ".m.rule.message", kind: "underride" },
  },
  "a room upgrade tombstone highlights (.m.rule.tombstone)": {
    event: {
      type: "m.room.tombstone",
      sender: MOD,
      state_key: "",
      content: { body: "moved", replacement_room: "!new" },
    },
    expect: { notify: true, highlight: true, ruleId: ".m.rule.tombstone", kind: "override" },
  },
  "a tombstone with a non-empty state key is not the tombstone rule": {
    event: { type: "m.room.tombstone", sender: MOD, state_key: "x", content: {} },
    expect: SILENT,
  },
  "reactions are silent (.m.rule.reaction)": {
    event: {
      type: "m.reaction",
      sender: BOB,
      content: { "m.relates_to": { rel_type: "m.annotation", event_id: "$e", key: "👍" } },
    },
    expect: { ...SILENT, ruleId: ".m.rule.reaction", kind: "override" },
  },
  "server ACL changes are silent (.m.rule.room.server_acl)": {
    event: { type: "m.room.server_acl", sender: MOD, state_key: "", content: { allow: ["*"] } },
    expect: { ...SILENT, ruleId: ".m.rule.room.server_acl", kind: "override" },
  },
  "edits are suppressed (.m.rule.suppress_edits)": {
    event: msg("* fixed", {
      "m.new_content": { body: "fixed" },
      "m.relates_to": { rel_type: "m.replace", event_id: "$o" },
    }),
    expect: { ...SILENT, ruleId: ".m.rule.suppress_edits", kind: "override" },
  },
  "an edit that newly mentions me still highlights (is_user_mention comes first)": {
    event: msg("* hi", {
      "m.mentions": { user_ids: [ME] },
      "m.relates_to": { rel_type: "m.replace", event_id: "$o" },
    }),
    expect: { ...MENTION, ruleId: ".m.rule.is_user_mention", kind: "override" },
  },
  "a call invite rings (.m.rule.call)": {
    event: { type: "m.call.invite", sender: BOB, content: { call_id: "c", version: "1" } },
    expect: { ...NOTIFY, sound: "ring", ruleId: ".m.rule.call", kind: "underride" },
  },
  "my own events never notify": { event: msg("hi Alice Liddell", {}, ME), expect: SILENT },
  "an enabled .m.rule.master silences everything": {
    event: msg("hey", { "m.mentions": { user_ids: [ME] } }),
    ruleset: withRules((r) => {
      r.override[0] = { ...r.override[0]!, enabled: true };
    }),
    expect: { ...SILENT, ruleId: ".m.rule.master", kind: "override" },
  },
  "a room rule with no actions mutes that room": {
    event: msg("hi"),
    ruleset: withRules((r) => r.room.push(userRule(ROOM, []))),
    expect: { ...SILENT, ruleId: ROOM, kind: "room" },
  },
  "a room rule for another room does not apply": {
    event: msg("hi"),
    ruleset: withRules((r) => r.room.push(userRule("!other:example.org", []))),
    expect: { ...NOTIFY, ruleId: ".m.rule.message", kind: "underride" },
  },
  "a sender rule with a sound applies to that sender": {
    event: msg("hi"),
    ruleset: withRules((r) =>
      r.sender.push(userRule(BOB, ["notify", { set_tweak: "sound", value: "bell" }])),
    ),
    expect: { ...NOTIFY, sound: "bell", ruleId: BOB, kind: "sender" },
  },
  "a keyword content rule with * matches a word prefix": {
    event: msg("Cakes are served"),
    ruleset: withRules((r) =>
      r.content.unshift(userRule("cake", ["notify", { set_tweak: "highlight" }], { pattern: "cake*" })),
    ),
    expect: { notify: true, highlight: true, ruleId: "cake", kind: "content" },
  },
  "? matches exactly one character": {
    event: msg("the cart"),
    ruleset: withRules((r) =>
      r.content.unshift(userRule("cat", ["notify", { set_tweak: "highlight" }], { pattern: "c?t" })),
    ),
    expect: { ...NOTIFY, ruleId: ".m.rule.message", kind: "underride" },
  },
  "event_match on a key other than content.body must match the whole value": {
    event: msg("x"),
    ruleset: withRules((r) =>
      r.override.unshift(
        userRule("whole", ["notify", { set_tweak: "sound", value: "a" }], {
          conditions: [{ kind: "event_match", key: "content.msgtype", pattern: "text" }],
        }),
      ),
    ),
    expect: { ...NOTIFY, ruleId: ".m.rule.message", kind: "underride" },
  },
  "event_match globs are case-insensitive on whole values": {
    event: msg("x"),
    ruleset: withRules((r) =>
      r.override.unshift(
        userRule("glob", ["notify", { set_tweak: "sound", value: "a" }], {
          conditions: [{ kind: "event_match", key: "content.msgtype", pattern: "M.TE*" }],
        }),
      ),
    ),
    expect: { ...NOTIFY, sound: "a", ruleId: "glob", kind: "override" },
  },
  "event_match never matches a non-string value": {
    event: msg("x", { count: 5 }),
    ruleset: withRules((r) =>
      r.override.unshift(
        userRule("num", ["notify", { set_tweak: "sound", value: "a" }], {
          conditions: [{ kind: "event_match", key: "content.count", pattern: "*" }],
        }),
      ),
    ),
    expect: { ...NOTIFY, ruleId: ".m.rule.message", kind: "underride" },
  },
  "dotted keys unescape \\. and \\\\": {
    event: msg("x", { "m.foo\\bar": "yes" }),
    ruleset: withRules((r) =>
      r.override.unshift(
        userRule("dots", ["notify", { set_tweak: "sound", value: "a" }], {
          conditions: [{ kind: "event_property_is", key: "content.m\\.foo\\\\bar", value: "yes" }],
        }),
      ),
    ),
    expect: { ...NOTIFY, sound: "a", ruleId: "dots", kind: "override" },
  },
  "event_property_is compares types exactly (1 is not true)": {
    event: msg("x", { flag: 1 }),
    ruleset: withRules((r) =>
      r.override.unshift(
        userRule("flag", [], {
          conditions: [{ kind: "event_property_is", key: "content.flag", value: true }],
        }),
      ),
    ),
    expect: { ...NOTIFY, ruleId: ".m.rule.message", kind: "underride" },
  },
  "event_property_is matches null exactly": {
    event: msg("x", { gone: null }),
    ruleset: withRules((r) =>
      r.override.unshift(
        userRule("null", [], {
          conditions: [{ kind: "event_property_is", key: "content.gone", value: null }],
        }),
      ),
    ),
    expect: { ...SILENT, ruleId: "null", kind: "override" },
  },
  "event_property_contains needs an array": {
    event: msg("x", { "m.mentions": { user_ids: ME } }),
    expect: { ...NOTIFY, ruleId: ".m.rule.message", kind: "underride" },
  },
  "room_member_count with >= compares the joined count": {
    event: msg("x"),
    ctx: { memberCount: 10 },
    ruleset: withRules((r) =>
      r.underride.unshift(userRule("big", [], { conditions: [{ kind: "room_member_count", is: ">=10" }] })),
    ),
    expect: { ...SILENT, ruleId: "big", kind: "underride" },
  },
  "room_member_count with a malformed expression never matches": {
    event: msg("x"),
    ctx: { memberCount: 2 },
    ruleset: withRules((r) =>
      r.underride.unshift(userRule("bad", [], { conditions: [{ kind: "room_member_count", is: "two" }] })),
    ),
    expect: { ...NOTIFY, sound: "default", ruleId: ".m.rule.room_one_to_one", kind: "underride" },
  },
  "an unknown condition kind never matches": {
    event: msg("x"),
    ruleset: withRules((r) =>
      r.override.unshift(userRule("future", [], { conditions: [{ kind: "org.example.future" }] })),
    ),
    expect: { ...NOTIFY, ruleId: ".m.rule.message", kind: "underride" },
  },
  "a disabled rule is skipped": {
    event: msg("x"),
    ruleset: withRules((r) => r.room.push(userRule(ROOM, [], { enabled: false }))),
    expect: { ...NOTIFY, ruleId: ".m.rule.message", kind: "underride" },
  },
  "set_tweak highlight with value false does not highlight": {
    event: msg("x"),
    ruleset: withRules((r) =>
      r.sender.push(userRule(BOB, ["notify", { set_tweak: "highlight", value: false }])),
    ),
    expect: { ...NOTIFY, ruleId: BOB, kind: "sender" },
  },
  "the legacy dont_notify and coalesce actions are no-ops": {
    event: msg("x"),
    ruleset: withRules((r) => r.sender.push(userRule(BOB, ["dont_notify", "coalesce"]))),
    expect: { ...SILENT, ruleId: BOB, kind: "sender" },
  },
  "a server that sends nothing gets the spec's default rules": {
    event: msg("hey alice"),
    ruleset: undefined,
    expect: { ...MENTION, ruleId: ".m.rule.contains_user_name", kind: "content" },
  },
  "garbage rules from the server are skipped, not thrown on": {
    event: msg("x"),
    ruleset: {
      override: [null, 5, { actions: ["notify"] }, { rule_id: "x", conditions: "nope", actions: ["notify"] }],
      underride: defaultPushRuleset(ME).underride,
    },
    expect: { ...NOTIFY, ruleId: ".m.rule.message", kind: "underride" },
  },
};

describe("push rule conformance", () => {
  it("has at least 40 cases", () => {
    expect(Object.keys(CASES).length).toBeGreaterThanOrEqual(40);
  });

  it.each(Object.entries(CASES))("%s", (_name, c) => {
    const ctx = { ...baseCtx, ...c.ctx };
    const ruleset = "ruleset" in c ? c.ruleset : defaultPushRuleset(ME);
    expect(evaluatePushRules(c.event, ruleset, ctx)).toEqual(c.expect);
  });
});
