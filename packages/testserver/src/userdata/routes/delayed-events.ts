/**
 * MSC4140 delayed events on the unstable prefix: GET /delayed_events,
 * POST /delayed_events/{delayId} with {action}, and the newer
 * POST /delayed_events/{delayId}/{cancel|restart|send}, where the delay id
 * itself is the secret (no access token needed).
 */
import type { ServerContext } from "../../core/context";
import { errors } from "../../http/errors";
import type { Router } from "../../http/router";
import type { DelayedAction } from "../delayed-events";
import { MSC4140_FEATURE, MSC4140_PREFIX } from "../delayed-events";
import { requester, requireObject } from "./util";

const ACTIONS = new Set<string>(["cancel", "restart", "send"]);

export function registerDelayedEventRoutes(router: Router, ctx: ServerContext): void {
  ctx.unstableFeatures.set(MSC4140_FEATURE, true);
  const store = ctx.userData.delayed;

  router.add("GET", MSC4140_PREFIX, "/delayed_events", (req) => ({
    delayed_events: store.list(requester(req).userId),
  }));

  router.add("POST", MSC4140_PREFIX, "/delayed_events/:delayId", (req) => {
    const who = requester(req);
    const action = requireObject(req.body)["action"];
    if (action === undefined) throw errors.missingParam("action");
    if (typeof action !== "string" || !ACTIONS.has(action))
      throw errors.invalidParam("'action' must be one of cancel, restart, send");
    store.update(req.params["delayId"] ?? "", action as DelayedAction, who.userId);
    return {};
  });

  router.add(
    "POST",
    MSC4140_PREFIX,
    "/delayed_events/:delayId/:action",
    (req) => {
      const action = req.params["action"] ?? "";
      if (!ACTIONS.has(action)) throw errors.unrecognized(404);
      store.update(req.params["delayId"] ?? "", action as DelayedAction, req.requester?.userId);
      return {};
    },
    { auth: "optional", guests: true },
  );
}
