/**
 * The client-side push rule evaluator: the first enabled rule that matches,
 * in kind order override, content, room, sender, underride, decides the
 * actions, which become { notify, highlight, sound }. Rules arrive as
 * untrusted JSON: malformed rules are skipped, never thrown on. The legacy
 * mention rules are skipped for events that carry m.mentions (spec v1.7).
 */
import type { PushRuleKind } from "../../api/types/push";
import { isJsonObject, own, ownString } from "../json";
import type { PushContext } from "./conditions";
import { conditionMatches } from "./conditions";
import { globMatchesWords } from "./glob";
import { valueAtPath } from "./path";
import { LEGACY_MENTION_RULE_IDS, defaultPushRuleset } from "./default-rules";

/** The kinds, in the order the spec evaluates them. */
export const PUSH_RULE_KINDS: readonly PushRuleKind[] = [
  "override",
  "content",
  "room",
  "sender",
  "underride",
];

/** What the rules decide for one event. */
export interface PushOutcome {
  /** Whether the event notifies (counts towards the unread badge). */
  readonly notify: boolean;
  /** Whether it highlights (a mention); only when it notifies. */
  readonly highlight: boolean;
  /** The sound to play, when it notifies with one. */
  readonly sound?: string;
  /** The rule that matched, if any. */
  readonly ruleId?: string;
  readonly kind?: PushRuleKind;
}

/** The outcome when no rule matches. */
export const NO_NOTIFICATION: PushOutcome = { notify: false, highlight: false };

/**
 * Reads actions: "notify" notifies; "dont_notify" and "coalesce" are the
 * legacy actions the current spec makes no-ops; set_tweak highlight is true
 * when its value is missing; set_tweak sound takes a string.
 */
export function outcomeOfActions(actions: unknown): Pick<PushOutcome, "notify" | "highlight" | "sound"> {
  if (!Array.isArray(actions)) return NO_NOTIFICATION;
  let notify = false;
  let highlight = false;
  let sound: string | undefined;
  for (const action of actions) {
    if (action === "notify") notify = true;
    const tweak = ownString(action, "set_tweak");
    if (tweak === "highlight") {
      const value = own(action, "value");
      highlight = value === undefined ? true : value === true;
    } else if (tweak === "sound") {
      const value = own(action, "value");
      if (typeof value === "string") sound = value;
    }
  }
  if (!notify) return NO_NOTIFICATION;
  return sound === undefined ? { notify, highlight } : { notify, highlight, sound };
}

function ruleMatches(
  kind: PushRuleKind,
  rule: Record<string, unknown>,
  event: unknown,
  ctx: PushContext,
): boolean {
  const ruleId = ownString(rule, "rule_id");
  if (ruleId === undefined) return false;
  switch (kind) {
    case "override":
    case "underride": {
      const conditions = own(rule, "conditions") ?? [];
      return Array.isArray(conditions) && conditions.every((c) => conditionMatches(event, c, ctx));
    }
    case "content": {
      const pattern = ownString(rule, "pattern");
      const body = valueAtPath(event, "content.body");
      return pattern !== undefined && typeof body === "string" && globMatchesWords(pattern, body);
    }
    case "room":
      return ruleId === (ownString(event, "room_id") ?? ctx.roomId);
    case "sender":
      return ruleId === ownString(event, "sender");
  }
}

/** Whether the ruleset is something the server sent (an object with at least one kind's list). */
function isUsableRuleset(ruleset: unknown): ruleset is Record<string, unknown> {
  return isJsonObject(ruleset) && PUSH_RULE_KINDS.some((k) => Array.isArray(own(ruleset, k)));
}

/**
 * Evaluates the rules for an event (untrusted JSON). Without a usable
 * ruleset from the server, the spec's default rules for ctx.userId apply.
 * The user's own events never notify.
 */
export function evaluatePushRules(event: unknown, ruleset: unknown, ctx: PushContext): PushOutcome {
  if (ownString(event, "sender") === ctx.userId) return NO_NOTIFICATION;
  const rules: unknown = isUsableRuleset(ruleset) ? ruleset : defaultPushRuleset(ctx.userId);
  const hasMentions = own(own(event, "content"), "m.mentions") !== undefined;
  for (const kind of PUSH_RULE_KINDS) {
    const list = own(rules, kind);
    if (!Array.isArray(list)) continue;
    for (const rule of list) {
      if (!isJsonObject(rule) || own(rule, "enabled") === false) continue;
      const ruleId = ownString(rule, "rule_id");
      if (ruleId !== undefined && hasMentions && LEGACY_MENTION_RULE_IDS.has(ruleId)) continue;
      if (!ruleMatches(kind, rule, event, ctx)) continue;
      return { ...outcomeOfActions(own(rule, "actions")), ruleId, kind };
    }
  }
  return NO_NOTIFICATION;
}
