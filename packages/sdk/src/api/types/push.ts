/**
 * Wire types of pushers and push rules (pusher.yaml, pushrules.yaml,
 * definitions/push_rule.yaml, push_condition.yaml, push_ruleset.yaml).
 */

/** The five kinds of push rule, in evaluation order. */
export type PushRuleKind = "override" | "content" | "room" | "sender" | "underride";

/** A push action: "notify", or a tweak such as { set_tweak: "sound", value: "default" }. */
export type PushAction = string | { set_tweak: string; value?: unknown; [key: string]: unknown };

/** A condition of an override or underride rule. */
export interface PushCondition {
  kind: string;
  key?: string;
  pattern?: string;
  is?: string;
  value?: string | number | boolean | null;
  [key: string]: unknown;
}

/** One push rule. */
export interface PushRule {
  rule_id: string;
  default: boolean;
  enabled: boolean;
  actions: PushAction[];
  conditions?: PushCondition[];
  pattern?: string;
}

/** The rules of one scope, grouped by kind. */
export interface PushRuleset {
  override?: PushRule[];
  content?: PushRule[];
  room?: PushRule[];
  sender?: PushRule[];
  underride?: PushRule[];
}

/** GET /pushrules/ */
export interface PushRulesResponse {
  global: PushRuleset;
}

/** PUT /pushrules/global/{kind}/{ruleId} body. */
export interface SetPushRuleRequest {
  actions: PushAction[];
  conditions?: PushCondition[];
  pattern?: string;
}

/** GET .../enabled */
export interface PushRuleEnabledResponse {
  enabled: boolean;
}

/** GET .../actions */
export interface PushRuleActionsResponse {
  actions: PushAction[];
}

/** Pusher data: where and how an http pusher delivers. */
export interface PusherData {
  url?: string;
  format?: "event_id_only";
  [key: string]: unknown;
}

/** One pusher as GET /pushers lists it. */
export interface Pusher {
  pushkey: string;
  kind: string;
  app_id: string;
  app_display_name: string;
  device_display_name: string;
  profile_tag?: string;
  lang: string;
  data: PusherData;
}

/** GET /pushers */
export interface PushersResponse {
  pushers?: Pusher[];
}

/**
 * POST /pushers/set body. `kind: null` deletes the pusher, and then only
 * pushkey and app_id are needed.
 */
export interface SetPusherRequest {
  pushkey: string;
  kind: string | null;
  app_id: string;
  app_display_name?: string;
  device_display_name?: string;
  profile_tag?: string;
  lang?: string;
  data?: PusherData;
  append?: boolean;
}
