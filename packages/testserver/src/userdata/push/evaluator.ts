/**
 * Push rule evaluation (client-server API, "Push rules"): the first enabled
 * rule that matches, in kind order override, content, room, sender,
 * underride, decides the actions. The evaluator is pure: everything it needs
 * about the room comes in through PushEvalContext.
 */
import type { JsonObject } from "../../core/events";
import type { PushAction, PushCondition, PushRule, PushRuleset } from "../wire-types";
import { PUSH_RULE_KINDS } from "../wire-types";
import { globMatches, globMatchesWord, valueAtPath } from "./glob";

/** What the evaluator needs to know about the event's room and the user. */
export interface PushEvalContext {
  /** The user whose rules are evaluated. */
  userId: string;
  /** The user's display name in the room, if any. */
  displayName?: string;
  /** Joined members of the room. */
  memberCount: number;
  /** The sender's power level. */
  senderPowerLevel: number;
  /** content.notifications of the room's power levels (default room: 50). */
  notificationLevels: Record<string, unknown>;
}

/** The outcome of evaluating an event. */
export interface PushOutcome {
  notify: boolean;
  highlight: boolean;
  sound?: string;
  actions: PushAction[];
  /** The rule that decided, if any. */
  ruleId?: string;
}

const NO_MATCH: PushOutcome = { notify: false, highlight: false, actions: [] };

/**
 * The deprecated mention rules: since v1.7 they do not apply to an event
 * that carries m.mentions (intentional mentions decide instead).
 */
const LEGACY_MENTION_RULES = new Set([
  ".m.rule.contains_display_name",
  ".m.rule.contains_user_name",
  ".m.rule.roomnotif",
]);

function hasIntentionalMentions(event: JsonObject): boolean {
  const content = event["content"];
  return typeof content === "object" && content !== null && "m.mentions" in content;
}

/** Evaluates the ruleset against an event (client format: type, sender, content, state_key...). */
export function evaluatePush(ruleset: PushRuleset, event: JsonObject, ctx: PushEvalContext): PushOutcome {
  const intentional = hasIntentionalMentions(event);
  for (const kind of PUSH_RULE_KINDS) {
    for (const rule of ruleset[kind]) {
      if (!rule.enabled) continue;
      if (intentional && LEGACY_MENTION_RULES.has(rule.rule_id)) continue;
      if (!ruleMatches(kind, rule, event, ctx)) continue;
      return { ...outcomeOf(rule.actions), ruleId: rule.rule_id };
    }
  }
  return NO_MATCH;
}

function ruleMatches(kind: string, rule: PushRule, event: JsonObject, ctx: PushEvalContext): boolean {
  switch (kind) {
    case "content": {
      const body = valueAtPath(event, "content.body");
      return (
        typeof rule.pattern === "string" && typeof body === "string" && globMatchesWord(rule.pattern, body)
      );
    }
    case "room":
      return event["room_id"] === rule.rule_id;
    case "sender":
      return event["sender"] === rule.rule_id;
    default:
      return (rule.conditions ?? []).every((c) => conditionMatches(c, event, ctx));
  }
}

/** Whether one condition holds. Unknown kinds never match, as the spec requires. */
export function conditionMatches(cond: PushCondition, event: JsonObject, ctx: PushEvalContext): boolean {
  switch (cond.kind) {
    case "event_match": {
      if (typeof cond.key !== "string" || typeof cond.pattern !== "string") return false;
      const value = valueAtPath(event, cond.key);
      if (typeof value !== "string") return false;
      return cond.key === "content.body"
        ? globMatchesWord(cond.pattern, value)
        : globMatches(cond.pattern, value);
    }
    case "event_property_is": {
      if (typeof cond.key !== "string" || !isScalar(cond.value)) return false;
      const value = valueAtPath(event, cond.key);
      return isScalar(value) && value === cond.value;
    }
    case "event_property_contains": {
      if (typeof cond.key !== "string" || !isScalar(cond.value)) return false;
      const value = valueAtPath(event, cond.key);
      return Array.isArray(value) && value.some((v) => isScalar(v) && v === cond.value);
    }
    case "contains_display_name": {
      const body = valueAtPath(event, "content.body");
      const name = ctx.displayName;
      if (typeof body !== "string" || !name) return false;
      // The name is literal text, not a glob.
      return containsLiteralWord(body, name);
    }
    case "room_member_count":
      return typeof cond.is === "string" && memberCountMatches(cond.is, ctx.memberCount);
    case "sender_notification_permission": {
      if (typeof cond.key !== "string") return false;
      const raw = Object.prototype.hasOwnProperty.call(ctx.notificationLevels, cond.key)
        ? ctx.notificationLevels[cond.key]
        : undefined;
      const required = typeof raw === "number" && Number.isFinite(raw) ? raw : 50;
      return ctx.senderPowerLevel >= required;
    }
    default:
      return false;
  }
}

/** Integers, strings, booleans and null: the values event_property_* compare. */
function isScalar(value: unknown): value is string | number | boolean | null {
  return (
    value === null ||
    typeof value === "string" ||
    typeof value === "boolean" ||
    (typeof value === "number" && Number.isInteger(value))
  );
}

function containsLiteralWord(body: string, name: string): boolean {
  const haystack = body.toLowerCase();
  const needle = name.toLowerCase();
  const word = /[\p{L}\p{N}_]/u;
  let from = 0;
  for (;;) {
    const at = haystack.indexOf(needle, from);
    if (at < 0) return false;
    const before = haystack[at - 1];
    const after = haystack[at + needle.length];
    if ((before === undefined || !word.test(before)) && (after === undefined || !word.test(after)))
      return true;
    from = at + 1;
  }
}

/** `is`: a decimal integer optionally prefixed by ==, <, >, >= or <=. */
export function memberCountMatches(is: string, count: number): boolean {
  const m = /^(==|<=|>=|<|>)?([0-9]+)$/.exec(is);
  if (!m) return false;
  const n = Number(m[2]);
  switch (m[1]) {
    case "<":
      return count < n;
    case ">":
      return count > n;
    case "<=":
      return count <= n;
    case ">=":
      return count >= n;
    default:
      return count === n;
  }
}

/** Reads notify, highlight and sound from a rule's actions. */
export function outcomeOf(actions: readonly PushAction[]): Omit<PushOutcome, "ruleId"> {
  let notify = false;
  let highlight = false;
  let sound: string | undefined;
  for (const action of actions) {
    if (action === "notify") notify = true;
    else if (typeof action === "object" && action !== null) {
      const tweak = action["set_tweak"];
      if (tweak === "highlight") highlight = action["value"] === undefined ? true : action["value"] === true;
      else if (tweak === "sound" && typeof action["value"] === "string") sound = action["value"];
    }
  }
  // Tweaks only matter for events that notify.
  return notify
    ? { notify, highlight, sound, actions: [...actions] }
    : { notify, highlight: false, actions: [...actions] };
}
