/**
 * Completing a server's ruleset with the spec's default rules it lacks (an
 * older server may predate .m.rule.is_user_mention or .m.rule.suppress_edits).
 * Default rules cannot be deleted, only disabled, so a missing one is one the
 * server does not know, and the client adds it where the spec orders it:
 * after the nearest earlier default the server has, else before the nearest
 * later one, else (no defaults at all) at the end, except .m.rule.master,
 * which always comes first. Apply once when rules arrive, not per event.
 */
import type { PushRuleKind } from "../../api/types/push";
import { isJsonObject, own, ownString } from "../json";
import { defaultPushRuleset } from "./default-rules";
import { PUSH_RULE_KINDS } from "./evaluator";

/** A ruleset whose lists hold the server's rules (untrusted) plus the added defaults. */
export type MergedRuleset = Record<PushRuleKind, unknown[]>;

function idOf(rule: unknown): string | undefined {
  return ownString(rule, "rule_id");
}

function mergeKind(server: readonly unknown[], defaults: readonly unknown[]): unknown[] {
  const out = [...server];
  const defaultIds = defaults.map(idOf);
  defaults.forEach((rule, i) => {
    const id = defaultIds[i];
    if (id === undefined || out.some((r) => idOf(r) === id)) return;
    if (id === ".m.rule.master") {
      out.unshift(rule);
      return;
    }
    // The user's override rules sit between master and the other defaults, so master is no anchor.
    const before = defaultIds
      .slice(0, i)
      .reverse()
      .filter((prev) => prev !== ".m.rule.master");
    for (const prev of before) {
      const at = out.findIndex((r) => idOf(r) === prev);
      if (at >= 0) {
        out.splice(at + 1, 0, rule);
        return;
      }
    }
    for (const next of defaultIds.slice(i + 1)) {
      const at = out.findIndex((r) => idOf(r) === next);
      if (at >= 0) {
        out.splice(at, 0, rule);
        return;
      }
    }
    out.push(rule);
  });
  return out;
}

/** The server's ruleset (untrusted) completed with the spec defaults it lacks. */
export function withDefaultRules(ruleset: unknown, userId: string): MergedRuleset {
  const defaults = defaultPushRuleset(userId);
  const source = isJsonObject(ruleset) ? ruleset : {};
  const merged = {} as MergedRuleset;
  for (const kind of PUSH_RULE_KINDS) {
    const list = own(source, kind);
    merged[kind] = mergeKind(Array.isArray(list) ? (list as unknown[]) : [], defaults[kind]);
  }
  return merged;
}
