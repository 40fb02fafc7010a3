/**
 * The spec's server-default push rules ("Predefined rules" in the
 * client-server API), built for one user. The user's rules are placed
 * around them as current Synapse does: .m.rule.master first, then the
 * user's override rules, then the remaining defaults; in the other kinds the
 * user's rules come before the defaults.
 */
import type { PushAction, PushCondition, PushRule, PushRuleKind } from "../wire-types";

const SOUND_DEFAULT: PushAction = { set_tweak: "sound", value: "default" };
const SOUND_RING: PushAction = { set_tweak: "sound", value: "ring" };
const HIGHLIGHT: PushAction = { set_tweak: "highlight" };

function rule(ruleId: string, conditions: PushCondition[], actions: PushAction[], enabled = true): PushRule {
  return { rule_id: ruleId, default: true, enabled, conditions, actions };
}

const match = (key: string, pattern: string): PushCondition => ({ kind: "event_match", key, pattern });

/** .m.rule.master: disabled by default; enabling it silences everything below it. */
export function masterRule(): PushRule {
  return rule(".m.rule.master", [], [], false);
}

/** The override defaults after .m.rule.master, in the spec's order. */
export function defaultOverrideRules(userId: string): PushRule[] {
  return [
    rule(".m.rule.suppress_notices", [match("content.msgtype", "m.notice")], []),
    rule(
      ".m.rule.invite_for_me",
      [match("type", "m.room.member"), match("content.membership", "invite"), match("state_key", userId)],
      ["notify", SOUND_DEFAULT],
    ),
    rule(".m.rule.member_event", [match("type", "m.room.member")], []),
    rule(
      ".m.rule.is_user_mention",
      [{ kind: "event_property_contains", key: "content.m\\.mentions.user_ids", value: userId }],
      ["notify", SOUND_DEFAULT, HIGHLIGHT],
    ),
    rule(
      ".m.rule.contains_display_name",
      [{ kind: "contains_display_name" }],
      ["notify", SOUND_DEFAULT, HIGHLIGHT],
    ),
    rule(
      ".m.rule.is_room_mention",
      [
        { kind: "event_property_is", key: "content.m\\.mentions.room", value: true },
        { kind: "sender_notification_permission", key: "room" },
      ],
      ["notify", HIGHLIGHT],
    ),
    rule(
      ".m.rule.roomnotif",
      [{ kind: "sender_notification_permission", key: "room" }, match("content.body", "@room")],
      ["notify", HIGHLIGHT],
    ),
    rule(
      ".m.rule.tombstone",
      [match("type", "m.room.tombstone"), match("state_key", "")],
      ["notify", HIGHLIGHT],
    ),
    rule(".m.rule.reaction", [match("type", "m.reaction")], []),
    rule(".m.rule.room.server_acl", [match("type", "m.room.server_acl"), match("state_key", "")], []),
    rule(
      ".m.rule.suppress_edits",
      [{ kind: "event_property_is", key: "content.m\\.relates_to.rel_type", value: "m.replace" }],
      [],
    ),
  ];
}

/** The content default: the user's localpart in the body, as a whole word. */
export function defaultContentRules(userId: string): PushRule[] {
  const localpart = userId.startsWith("@") ? (userId.slice(1).split(":")[0] ?? "") : userId;
  return [
    {
      rule_id: ".m.rule.contains_user_name",
      default: true,
      enabled: true,
      pattern: localpart,
      actions: ["notify", SOUND_DEFAULT, HIGHLIGHT],
    },
  ];
}

/** The underride defaults, in the spec's order. */
export function defaultUnderrideRules(): PushRule[] {
  const oneToOne: PushCondition = { kind: "room_member_count", is: "2" };
  return [
    rule(".m.rule.call", [match("type", "m.call.invite")], ["notify", SOUND_RING]),
    rule(
      ".m.rule.encrypted_room_one_to_one",
      [oneToOne, match("type", "m.room.encrypted")],
      ["notify", SOUND_DEFAULT],
    ),
    rule(".m.rule.room_one_to_one", [oneToOne, match("type", "m.room.message")], ["notify", SOUND_DEFAULT]),
    rule(".m.rule.message", [match("type", "m.room.message")], ["notify"]),
    rule(".m.rule.encrypted", [match("type", "m.room.encrypted")], ["notify"]),
  ];
}

/** Every server-default rule of a user, by kind (master included in override). */
export function defaultRules(userId: string): Record<PushRuleKind, PushRule[]> {
  return {
    override: [masterRule(), ...defaultOverrideRules(userId)],
    content: defaultContentRules(userId),
    room: [],
    sender: [],
    underride: defaultUnderrideRules(),
  };
}
