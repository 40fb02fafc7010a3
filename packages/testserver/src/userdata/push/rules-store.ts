/**
 * Each user's push rules: the server defaults (whose enabled flag and
 * actions the user may change) and the user's own rules per kind, with
 * before/after placement. Every change advances the stream, so sync reports
 * m.push_rules global account data.
 */
import type { ServerContext } from "../../core/context";
import { MatrixHttpError } from "../../http/errors";
import { isJsonObject } from "../../http/types";
import type { PushAction, PushCondition, PushRule, PushRuleKind, PushRuleset } from "../wire-types";
import { PUSH_RULE_KINDS } from "../wire-types";
import { defaultRules } from "./default-rules";

interface UserRules {
  own: Record<PushRuleKind, PushRule[]>;
  /** Changes the user made to server-default rules, by rule id. */
  defaults: Map<string, { enabled?: boolean; actions?: PushAction[] }>;
  /** Stream position of the last change (0: never changed). */
  stream: number;
}

const KNOWN_ACTIONS = new Set(["notify", "dont_notify", "coalesce"]);

/** Whether a path segment names a push rule kind. */
export function isPushRuleKind(kind: string): kind is PushRuleKind {
  return (PUSH_RULE_KINDS as readonly string[]).includes(kind);
}

const badRule = (msg: string): MatrixHttpError => new MatrixHttpError(400, "M_UNKNOWN", msg);
const badParam = (msg: string): MatrixHttpError => new MatrixHttpError(400, "M_INVALID_PARAM", msg);

export class PushRulesStore {
  private users = new Map<string, UserRules>();
  /** Bumped on every change of any user's rules, so cached evaluations can be dropped. */
  version = 0;

  constructor(private readonly ctx: ServerContext) {}

  private entry(userId: string): UserRules {
    let rules = this.users.get(userId);
    if (!rules) {
      rules = {
        own: { override: [], content: [], room: [], sender: [], underride: [] },
        defaults: new Map(),
        stream: 0,
      };
      this.users.set(userId, rules);
    }
    return rules;
  }

  private changed(rules: UserRules): void {
    rules.stream = this.ctx.notifier.advance();
    this.version++;
  }

  /** The user's full ruleset, in evaluation order within each kind. */
  ruleset(userId: string): PushRuleset {
    const rules = this.users.get(userId);
    const defaults = defaultRules(userId);
    const apply = (rule: PushRule): PushRule => {
      const change = rules?.defaults.get(rule.rule_id);
      return change ? { ...rule, ...change } : rule;
    };
    const own = (kind: PushRuleKind): PushRule[] => (rules?.own[kind] ?? []).map(copyRule);
    const [master, ...otherOverrides] = defaults.override.map(apply);
    return {
      override: [...(master ? [master] : []), ...own("override"), ...otherOverrides],
      content: [...own("content"), ...defaults.content.map(apply)],
      room: own("room"),
      sender: own("sender"),
      underride: [...own("underride"), ...defaults.underride.map(apply)],
    };
  }

  /** Stream position of the user's last change, 0 when never changed. */
  changedAt(userId: string): number {
    return this.users.get(userId)?.stream ?? 0;
  }

  /** One rule, or undefined. */
  get(userId: string, kind: PushRuleKind, ruleId: string): PushRule | undefined {
    return this.ruleset(userId)[kind].find((r) => r.rule_id === ruleId);
  }

  /** Creates or replaces a user rule (PUT /pushrules/global/{kind}/{ruleId}). */
  put(
    userId: string,
    kind: PushRuleKind,
    ruleId: string,
    body: unknown,
    before?: string,
    after?: string,
  ): void {
    if (ruleId.startsWith(".")) throw badRule("cannot add new rule_ids that start with '.'");
    if (ruleId.length === 0 || ruleId.includes("/") || ruleId.includes("\\"))
      throw badRule("rule_id must not be empty or contain slashes");
    if (!isJsonObject(body)) throw badRule("Content must be a JSON object");
    const rule: PushRule = {
      rule_id: ruleId,
      default: false,
      enabled: true,
      actions: parseActions(body["actions"]),
    };
    if (kind === "override" || kind === "underride") {
      if (body["conditions"] === undefined) throw badRule("Missing 'conditions'");
      rule.conditions = parseConditions(body["conditions"]);
    } else if (kind === "content") {
      if (typeof body["pattern"] !== "string") throw badRule("Content rule missing 'pattern'");
      rule.pattern = body["pattern"];
    }
    const rules = this.entry(userId);
    const list = rules.own[kind];
    const existing = list.findIndex((r) => r.rule_id === ruleId);
    const anchorId = before ?? after;
    if (anchorId !== undefined) {
      if (anchorId.startsWith(".")) throw badRule("before/after rule cannot be a server-default rule");
      if (anchorId === ruleId || !list.some((r) => r.rule_id === anchorId))
        throw badRule("before/after rule not found: " + anchorId);
    }
    if (existing >= 0) {
      // An update keeps the rule's enabled flag, as Synapse does.
      rule.enabled = (list[existing] as PushRule).enabled;
      if (anchorId === undefined) {
        list[existing] = rule;
        this.changed(rules);
        return;
      }
      list.splice(existing, 1);
    }
    if (anchorId === undefined) list.unshift(rule);
    else {
      const at = list.findIndex((r) => r.rule_id === anchorId);
      list.splice(before !== undefined ? at : at + 1, 0, rule);
    }
    this.changed(rules);
  }

  /** Deletes a user rule; false when there is none (server defaults cannot be deleted). */
  delete(userId: string, kind: PushRuleKind, ruleId: string): boolean {
    const rules = this.users.get(userId);
    if (!rules) return false;
    const list = rules.own[kind];
    const at = list.findIndex((r) => r.rule_id === ruleId);
    if (at < 0) return false;
    list.splice(at, 1);
    this.changed(rules);
    return true;
  }

  /** Enables or disables a rule; false when it does not exist. */
  setEnabled(userId: string, kind: PushRuleKind, ruleId: string, enabled: boolean): boolean {
    return this.modify(userId, kind, ruleId, { enabled });
  }

  /** Replaces a rule's actions (validated); false when it does not exist. */
  setActions(userId: string, kind: PushRuleKind, ruleId: string, actions: unknown): boolean {
    return this.modify(userId, kind, ruleId, { actions: parseActions(actions) });
  }

  private modify(
    userId: string,
    kind: PushRuleKind,
    ruleId: string,
    change: { enabled?: boolean; actions?: PushAction[] },
  ): boolean {
    if (!this.get(userId, kind, ruleId)) return false;
    const rules = this.entry(userId);
    if (ruleId.startsWith(".")) {
      rules.defaults.set(ruleId, { ...rules.defaults.get(ruleId), ...change });
    } else {
      const rule = rules.own[kind].find((r) => r.rule_id === ruleId);
      if (!rule) return false;
      Object.assign(rule, change);
    }
    this.changed(rules);
    return true;
  }
}

function copyRule(rule: PushRule): PushRule {
  return structuredClone(rule);
}

/** Validates actions: known strings or {set_tweak: string, value?}. */
export function parseActions(value: unknown): PushAction[] {
  if (value === undefined) throw badRule("No actions found");
  if (!Array.isArray(value)) throw badRule("Invalid actions: must be an array");
  return value.map((action): PushAction => {
    if (typeof action === "string") {
      if (!KNOWN_ACTIONS.has(action)) throw badRule(`Unrecognised action: ${action.slice(0, 100)}`);
      return action;
    }
    if (isJsonObject(action) && typeof action["set_tweak"] === "string") return structuredClone(action);
    throw badRule("Invalid action");
  });
}

/** Validates conditions: objects with a string kind and well-typed parameters. */
export function parseConditions(value: unknown): PushCondition[] {
  if (!Array.isArray(value)) throw badParam("conditions must be an array");
  return value.map((cond): PushCondition => {
    if (!isJsonObject(cond) || typeof cond["kind"] !== "string")
      throw badParam("Each condition needs a string kind");
    for (const field of ["key", "pattern", "is"]) {
      if (cond[field] !== undefined && typeof cond[field] !== "string")
        throw badParam(`Condition field '${field}' must be a string`);
    }
    const v = cond["value"];
    if (v !== undefined && v !== null && !["string", "number", "boolean"].includes(typeof v))
      throw badParam("Condition value must be a string, integer, boolean or null");
    return structuredClone(cond) as unknown as PushCondition;
  });
}
