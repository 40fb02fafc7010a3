/**
 * The push rules of the fixture account: the spec's predefined rule set for
 * the bench user (client-server API, "Predefined Rules"), served both as the
 * m.push_rules account data of the initial sync and by GET /pushrules/.
 */

type Rule = Record<string, unknown>;

function rule(rule_id: string, conditions: Rule[], actions: unknown[]): Rule {
  return { rule_id, default: true, enabled: true, conditions, actions };
}

const NOTIFY = ["notify"];
const SOUND = { set_tweak: "sound", value: "default" };
const HIGHLIGHT = { set_tweak: "highlight" };

/** The predefined push rules for `userId`, whose localpart is `localpart`. */
export function pushRules(userId: string, localpart: string): Record<string, unknown> {
  const override = [
    { ...rule(".m.rule.master", [], []), enabled: false },
    rule(
      ".m.rule.suppress_notices",
      [{ kind: "event_match", key: "content.msgtype", pattern: "m.notice" }],
      [],
    ),
    rule(
      ".m.rule.invite_for_me",
      [
        { kind: "event_match", key: "type", pattern: "m.room.member" },
        { kind: "event_match", key: "content.membership", pattern: "invite" },
        { kind: "event_match", key: "state_key", pattern: userId },
      ],
      [...NOTIFY, SOUND],
    ),
    rule(".m.rule.member_event", [{ kind: "event_match", key: "type", pattern: "m.room.member" }], []),
    rule(
      ".m.rule.is_user_mention",
      [{ kind: "event_property_contains", key: "content.m\\.mentions.user_ids", value: userId }],
      [...NOTIFY, SOUND, HIGHLIGHT],
    ),
    rule(".m.rule.contains_display_name", [{ kind: "contains_display_name" }], [...NOTIFY, SOUND, HIGHLIGHT]),
    rule(
      ".m.rule.is_room_mention",
      [
        { kind: "event_property_is", key: "content.m\\.mentions.room", value: true },
        { kind: "sender_notification_permission", key: "room" },
      ],
      [...NOTIFY, HIGHLIGHT],
    ),
    rule(
      ".m.rule.roomnotif",
      [
        { kind: "sender_notification_permission", key: "room" },
        { kind: "event_match", key: "content.body", pattern: "@room" },
      ],
      [...NOTIFY, HIGHLIGHT],
    ),
    rule(
      ".m.rule.tombstone",
      [
        { kind: "event_match", key: "type", pattern: "m.room.tombstone" },
        { kind: "event_match", key: "state_key", pattern: "" },
      ],
      [...NOTIFY, HIGHLIGHT],
    ),
    rule(".m.rule.reaction", [{ kind: "event_match", key: "type", pattern: "m.reaction" }], []),
    rule(
      ".m.rule.suppress_edits",
      [{ kind: "event_property_is", key: "content.m\\.relates_to.rel_type", value: "m.replace" }],
      [],
    ),
  ];
  const content = [
    {
      rule_id: ".m.rule.contains_user_name",
      default: true,
      enabled: true,
      pattern: localpart,
      actions: [...NOTIFY, SOUND, HIGHLIGHT],
    },
  ];
  const underride = [
    rule(
      ".m.rule.call",
      [{ kind: "event_match", key: "type", pattern: "m.call.invite" }],
      [...NOTIFY, SOUND],
    ),
    rule(
      ".m.rule.room_one_to_one",
      [
        { kind: "room_member_count", is: "2" },
        { kind: "event_match", key: "type", pattern: "m.room.message" },
      ],
      [...NOTIFY, SOUND],
    ),
    rule(".m.rule.message", [{ kind: "event_match", key: "type", pattern: "m.room.message" }], NOTIFY),
    rule(".m.rule.encrypted", [{ kind: "event_match", key: "type", pattern: "m.room.encrypted" }], NOTIFY),
  ];
  return { global: { override, content, underride, room: [], sender: [] } };
}
