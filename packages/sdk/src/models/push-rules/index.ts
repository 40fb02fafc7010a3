/**
 * Push rules: a complete client-side evaluator over the spec's condition
 * kinds and rule kinds, and the spec's default ruleset as data.
 */
export { evaluatePushRules, outcomeOfActions, NO_NOTIFICATION, PUSH_RULE_KINDS } from "./evaluator";
export type { PushOutcome } from "./evaluator";
export { conditionMatches, memberCountMatches } from "./conditions";
export type { PushContext } from "./conditions";
export { defaultPushRuleset, LEGACY_MENTION_RULE_IDS, localpartOf } from "./default-rules";
export { containsWords, globMatches, globMatchesWords } from "./glob";
export { splitPath, valueAtPath } from "./path";
export { countUnread, reconcileUnread } from "./unread";
export type { UnreadBreakdown } from "./unread";
export { withDefaultRules } from "./merge";
export type { MergedRuleset } from "./merge";
