/**
 * The spec's predefined push rules ("Default rules" of the push notifications
 * module), as data for one user, so the evaluator behaves like a spec server
 * even when the server sends no rules. Order within each kind is the spec's.
 */
import type { PushAction, PushCondition, PushRule, PushRuleset } from "../../api/types/push";

const SOUND_DEFAULT: PushAction = { set_tweak: "sound", value: "default" };
const SOUND_RING: PushAction = { set_tweak: "sound", value: "ring" };
const HIGHLIGHT: PushAction = { set_tweak: "highlight" };

const match = (key: string, pattern: string): PushCondition => ({ kind: "event_match", key, pattern });

function rule(id: string, conditions: PushCondition[], actions: PushAction[], enabled = true): PushRule {
  return { rule_id: id, default: true, enabled, conditions, actions };
}

/** Rule ids of the legacy mention rules, which apply only to events without m.mentions. */
export const LEGACY_MENTION_RULE_IDS: ReadonlySet<string> = new Set([
  ".m.rule.contains_display_name",
  ".m.rule.contains_user_name",
  ".m.rule.roomnotif",
]);

/** The localpart of a user id ("@alice:hs" -> "alice"). */
export function localpartOf(userId: string): string {
  const body = userId.startsWith("@") ? userId.slice(1) : userId;
  const colon = body.indexOf(":");
  return colon < 0 ? body : body.slice(0, colon);
}

/** The spec's default push ruleset for `userId`. */
export function defaultPushRuleset(userId: string): Required<PushRuleset> {
  const roomMention: PushCondition = { kind: "sender_notification_permission", key: "room" };
  const oneToOne: PushCondition = { kind: "room_member_count", is: "2" };
  return {
    override: [
      rule(".m.rule.master", [], [], false),
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
        [{ kind: "event_property_is", key: "content.m\\.mentions.room", value: true }, roomMention],
        ["notify", HIGHLIGHT],
      ),
      rule(".m.rule.roomnotif", [roomMention, match("content.body", "@room")], ["notify", HIGHLIGHT]),
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
    ],
    content: [
      {
        rule_id: ".m.rule.contains_user_name",
        default: true,
        enabled: true,
        pattern: localpartOf(userId),
        actions: ["notify", SOUND_DEFAULT, HIGHLIGHT],
      },
    ],
    room: [],
    sender: [],
    underride: [
      rule(".m.rule.call", [match("type", "m.call.invite")], ["notify", SOUND_RING]),
      rule(
        ".m.rule.encrypted_room_one_to_one",
        [oneToOne, match("type", "m.room.encrypted")],
        ["notify", SOUND_DEFAULT],
      ),
      rule(".m.rule.room_one_to_one", [oneToOne, match("type", "m.room.message")], ["notify", SOUND_DEFAULT]),
      rule(".m.rule.message", [match("type", "m.room.message")], ["notify"]),
      rule(".m.rule.encrypted", [match("type", "m.room.encrypted")], ["notify"]),
    ],
  };
}
