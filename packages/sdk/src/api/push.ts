/**
 * Pushers and push rules. Rules live in the "global" scope, the only one
 * the spec defines; a rule is addressed by kind and rule id. New rules can
 * be placed relative to another with `before` or `after`.
 */
import type { HttpApi } from "../http/types";
import { encodePath } from "../http/types";
import type {
  PushAction,
  PushersResponse,
  PushRule,
  PushRuleActionsResponse,
  PushRuleEnabledResponse,
  PushRuleKind,
  PushRulesResponse,
  SetPushRuleRequest,
  SetPusherRequest,
} from "./types/push";

/** GET /pushers */
export function getPushers(http: HttpApi): Promise<PushersResponse> {
  return http.request<PushersResponse>({ method: "GET", path: "/pushers" });
}

/** POST /pushers/set: creates, updates or (kind null) deletes a pusher. */
export async function setPusher(http: HttpApi, body: SetPusherRequest): Promise<void> {
  await http.request<unknown>({ method: "POST", path: "/pushers/set", body });
}

/** GET /pushrules/: the user's whole ruleset. */
export function getPushRules(http: HttpApi): Promise<PushRulesResponse> {
  return http.request<PushRulesResponse>({ method: "GET", path: "/pushrules/" });
}

function rulePath(kind: PushRuleKind, ruleId: string, suffix = ""): string {
  return encodePath`/pushrules/global/${kind}/${ruleId}` + suffix;
}

/** GET /pushrules/global/{kind}/{ruleId} */
export function getPushRule(http: HttpApi, kind: PushRuleKind, ruleId: string): Promise<PushRule> {
  return http.request<PushRule>({ method: "GET", path: rulePath(kind, ruleId) });
}

/** Where to place a new rule among the user-defined rules of its kind. */
export interface PushRulePosition {
  before?: string;
  after?: string;
}

/** PUT /pushrules/global/{kind}/{ruleId}: creates or replaces a rule. */
export async function setPushRule(
  http: HttpApi,
  kind: PushRuleKind,
  ruleId: string,
  body: SetPushRuleRequest,
  position: PushRulePosition = {},
): Promise<void> {
  await http.request<unknown>({
    method: "PUT",
    path: rulePath(kind, ruleId),
    query: { before: position.before, after: position.after },
    body,
  });
}

/** DELETE /pushrules/global/{kind}/{ruleId} */
export async function deletePushRule(http: HttpApi, kind: PushRuleKind, ruleId: string): Promise<void> {
  await http.request<unknown>({ method: "DELETE", path: rulePath(kind, ruleId) });
}

/** GET /pushrules/global/{kind}/{ruleId}/enabled */
export function getPushRuleEnabled(
  http: HttpApi,
  kind: PushRuleKind,
  ruleId: string,
): Promise<PushRuleEnabledResponse> {
  return http.request<PushRuleEnabledResponse>({ method: "GET", path: rulePath(kind, ruleId, "/enabled") });
}

/** PUT /pushrules/global/{kind}/{ruleId}/enabled */
export async function setPushRuleEnabled(
  http: HttpApi,
  kind: PushRuleKind,
  ruleId: string,
  enabled: boolean,
): Promise<void> {
  await http.request<unknown>({ method: "PUT", path: rulePath(kind, ruleId, "/enabled"), body: { enabled } });
}

/** GET /pushrules/global/{kind}/{ruleId}/actions */
export function getPushRuleActions(
  http: HttpApi,
  kind: PushRuleKind,
  ruleId: string,
): Promise<PushRuleActionsResponse> {
  return http.request<PushRuleActionsResponse>({ method: "GET", path: rulePath(kind, ruleId, "/actions") });
}

/** PUT /pushrules/global/{kind}/{ruleId}/actions */
export async function setPushRuleActions(
  http: HttpApi,
  kind: PushRuleKind,
  ruleId: string,
  actions: PushAction[],
): Promise<void> {
  await http.request<unknown>({ method: "PUT", path: rulePath(kind, ruleId, "/actions"), body: { actions } });
}
