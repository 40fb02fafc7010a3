/**
 * Completing an older server's ruleset with the spec defaults it lacks, in
 * the spec's order, without touching the user's own rules.
 */
import { describe, expect, it } from "vitest";
import { defaultPushRuleset, evaluatePushRules, withDefaultRules } from "../../../src/models/push-rules";

const ME = "@me:hs";
const ids = (list: unknown[]) => list.map((r) => (r as { rule_id: string }).rule_id);

/** The specification's predefined override rules, in its order. */
const SPEC_OVERRIDE = [
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
];
/** The specification's predefined underride rules, in its order. */
const SPEC_UNDERRIDE = [
  ".m.rule.call",
  ".m.rule.encrypted_room_one_to_one",
  ".m.rule.room_one_to_one",
  ".m.rule.message",
  ".m.rule.encrypted",
];

describe("withDefaultRules", () => {
  it("adds missing defaults in the spec's order around the server's rules", () => {
    const d = defaultPushRuleset(ME);
    const byId = (id: string) => d.override.find((r) => r.rule_id === id)!;
    const user = { rule_id: "mine", default: false, enabled: true, actions: [], conditions: [] };
    const server = {
      override: [byId(".m.rule.master"), user, byId(".m.rule.suppress_notices"), byId(".m.rule.roomnotif")],
      underride: d.underride,
    };
    const merged = withDefaultRules(server, ME);
    expect(ids(merged.override)).toEqual([
      ".m.rule.master",
      "mine",
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
    expect(ids(merged.content)).toEqual([".m.rule.contains_user_name"]);
    expect(ids(merged.underride)).toEqual(SPEC_UNDERRIDE);
  });

  it("keeps the server's version of a default rule (e.g. disabled)", () => {
    const d = defaultPushRuleset(ME);
    const message = d.underride.find((r) => r.rule_id === ".m.rule.message")!;
    const disabled = { ...message, enabled: false };
    const merged = withDefaultRules({ underride: [disabled] }, ME);
    expect(merged.underride.filter((r) => (r as { rule_id: string }).rule_id === ".m.rule.message")).toEqual([
      disabled,
    ]);
    const event = { type: "m.room.message", sender: "@b:hs", content: { body: "hi" } };
    expect(evaluatePushRules(event, merged, { userId: ME, memberCount: 5 }).notify).toBe(false);
  });

  it("puts the master rule first and appends defaults after user rules", () => {
    const user = { rule_id: "u", default: false, enabled: true, actions: ["notify"], conditions: [] };
    const merged = withDefaultRules({ override: [user], underride: [user] }, ME);
    expect(ids(merged.override)[0]).toBe(".m.rule.master");
    expect(ids(merged.override)[1]).toBe("u");
    expect(ids(merged.override)).toEqual([".m.rule.master", "u", ...SPEC_OVERRIDE.slice(1)]);
    expect(ids(merged.underride)).toEqual(["u", ...SPEC_UNDERRIDE]);
    const fromGarbage = withDefaultRules("garbage", ME);
    expect(ids(fromGarbage.override)).toEqual(SPEC_OVERRIDE);
    expect(ids(fromGarbage.content)).toEqual([".m.rule.contains_user_name"]);
    expect(ids(fromGarbage.underride)).toEqual(SPEC_UNDERRIDE);
  });

  it("makes an old server's rules see m.mentions", () => {
    const d = defaultPushRuleset(ME);
    const legacyOnly = {
      override: d.override.filter((r) => r.rule_id !== ".m.rule.is_user_mention"),
      underride: d.underride,
    };
    const event = {
      type: "m.room.message",
      sender: "@b:hs",
      content: { body: "hey", "m.mentions": { user_ids: [ME] } },
    };
    const ctx = { userId: ME, memberCount: 5 };
    expect(evaluatePushRules(event, legacyOnly, ctx).highlight).toBe(false);
    expect(evaluatePushRules(event, withDefaultRules(legacyOnly, ME), ctx).highlight).toBe(true);
  });
});
