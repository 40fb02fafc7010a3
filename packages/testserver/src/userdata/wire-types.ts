/**
 * Wire shapes (snake_case, as the spec names them) of the userdata domain:
 * push rules, pushers, presence, delayed events.
 */
import type { JsonObject } from "../core/events";

/** The five kinds of push rule, in evaluation order. */
export const PUSH_RULE_KINDS = ["override", "content", "room", "sender", "underride"] as const;
export type PushRuleKind = (typeof PUSH_RULE_KINDS)[number];

/** A push condition (definitions/push_condition.yaml). */
export interface PushCondition {
  kind: string;
  key?: string;
  pattern?: string;
  is?: string;
  value?: string | number | boolean | null;
}

/** A push action: "notify" or a tweak object such as {set_tweak: "sound", value: "default"}. */
export type PushAction = string | JsonObject;

/** A push rule (definitions/push_rule.yaml). */
export interface PushRule {
  rule_id: string;
  default: boolean;
  enabled: boolean;
  actions: PushAction[];
  conditions?: PushCondition[];
  pattern?: string;
}

/** A ruleset (definitions/push_ruleset.yaml). */
export type PushRuleset = Record<PushRuleKind, PushRule[]>;

/** A pusher as GET /pushers lists it. */
export interface Pusher {
  pushkey: string;
  kind: string;
  app_id: string;
  app_display_name: string;
  device_display_name: string;
  profile_tag?: string;
  lang: string;
  data: JsonObject;
}

export type PresenceState = "online" | "offline" | "unavailable";

/** GET /presence/{userId}/status */
export interface PresenceStatus {
  presence: PresenceState;
  last_active_ago?: number;
  status_msg?: string;
  currently_active?: boolean;
}

/** A scheduled delayed event (MSC4140), as GET /delayed_events lists it. */
export interface DelayedEventWire {
  delay_id: string;
  room_id: string;
  type: string;
  state_key?: string;
  delay: number;
  running_since: number;
  content: JsonObject;
  parent_delay_id?: string;
}
