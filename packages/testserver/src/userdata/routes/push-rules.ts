/**
 * Push rules: GET /pushrules/ and /pushrules/global/, and GET/PUT/DELETE
 * /pushrules/global/{kind}/{ruleId} with .../enabled and .../actions.
 */
import type { ServerContext } from "../../core/context";
import { errors } from "../../http/errors";
import { CLIENT_V3 } from "../../http/router";
import type { Router } from "../../http/router";
import type { HandlerRequest } from "../../http/types";
import { isPushRuleKind } from "../push/rules-store";
import type { PushRuleKind } from "../wire-types";
import { requester, requireObject } from "./util";

interface RulePath {
  userId: string;
  kind: PushRuleKind;
  ruleId: string;
}

function rulePath(req: HandlerRequest): RulePath {
  const who = requester(req);
  const kind = req.params["kind"] ?? "";
  if (!isPushRuleKind(kind)) throw errors.invalidParam("Unknown push rule kind");
  return { userId: who.userId, kind, ruleId: req.params["ruleId"] ?? "" };
}

const notFound = (): Error => errors.notFound("Unknown rule");

export function registerPushRuleRoutes(router: Router, ctx: ServerContext): void {
  const rules = ctx.userData.pushRules;
  // "global" is the only scope; any other is an unknown path (404 M_UNRECOGNIZED).
  const RULE = "/pushrules/global/:kind/:ruleId";

  router.add("GET", CLIENT_V3, "/pushrules/", (req) => ({ global: rules.ruleset(requester(req).userId) }));
  router.add("GET", CLIENT_V3, "/pushrules/global/", (req) => ({ ...rules.ruleset(requester(req).userId) }));

  router.add("GET", CLIENT_V3, RULE, (req) => {
    const p = rulePath(req);
    const rule = rules.get(p.userId, p.kind, p.ruleId);
    if (!rule) throw notFound();
    return { ...rule };
  });

  router.add("PUT", CLIENT_V3, RULE, (req) => {
    const p = rulePath(req);
    const before = req.query.get("before") ?? undefined;
    const after = req.query.get("after") ?? undefined;
    rules.put(p.userId, p.kind, p.ruleId, requireObject(req.body), before, after);
    return {};
  });

  router.add("DELETE", CLIENT_V3, RULE, (req) => {
    const p = rulePath(req);
    // Server-default rules are not the user's to delete: like Synapse, they are simply not found.
    if (!rules.delete(p.userId, p.kind, p.ruleId)) throw notFound();
    return {};
  });

  router.add("GET", CLIENT_V3, `${RULE}/enabled`, (req) => {
    const p = rulePath(req);
    const rule = rules.get(p.userId, p.kind, p.ruleId);
    if (!rule) throw notFound();
    return { enabled: rule.enabled };
  });

  router.add("PUT", CLIENT_V3, `${RULE}/enabled`, (req) => {
    const p = rulePath(req);
    const enabled = requireObject(req.body)["enabled"];
    if (enabled === undefined) throw errors.missingParam("enabled");
    if (typeof enabled !== "boolean") throw errors.invalidParam("'enabled' must be a boolean");
    if (!rules.setEnabled(p.userId, p.kind, p.ruleId, enabled)) throw notFound();
    return {};
  });

  router.add("GET", CLIENT_V3, `${RULE}/actions`, (req) => {
    const p = rulePath(req);
    const rule = rules.get(p.userId, p.kind, p.ruleId);
    if (!rule) throw notFound();
    return { actions: rule.actions };
  });

  router.add("PUT", CLIENT_V3, `${RULE}/actions`, (req) => {
    const p = rulePath(req);
    const body = requireObject(req.body);
    if (!rules.get(p.userId, p.kind, p.ruleId)) throw notFound();
    if (body["actions"] === undefined) throw errors.missingParam("actions");
    rules.setActions(p.userId, p.kind, p.ruleId, body["actions"]);
    return {};
  });
}
