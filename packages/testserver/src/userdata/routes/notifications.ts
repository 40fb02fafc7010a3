/**
 * GET /notifications (built on the push evaluator) and pushers:
 * GET /pushers and POST /pushers/set.
 */
import type { ServerContext } from "../../core/context";
import type { JsonObject } from "../../core/events";
import { errors } from "../../http/errors";
import { CLIENT_V3 } from "../../http/router";
import type { Router } from "../../http/router";
import { isJsonObject } from "../../http/types";
import type { Pusher } from "../wire-types";
import { intQuery, requester, requireObject } from "./util";

/** Page size of /notifications when the client gives no limit. */
export const DEFAULT_NOTIFICATIONS_LIMIT = 50;
/** The path HTTP pushers must post to. */
export const PUSH_GATEWAY_PATH = "/_matrix/push/v1/notify";

export function registerNotificationRoutes(router: Router, ctx: ServerContext): void {
  router.add("GET", CLIENT_V3, "/notifications", (req) => {
    const who = requester(req);
    const from = intQuery(req, "from", 0, Number.MAX_SAFE_INTEGER);
    const limit = intQuery(req, "limit", 0, 1000) ?? DEFAULT_NOTIFICATIONS_LIMIT;
    const only = req.query.get("only");
    const result = ctx.userData.notifications.list(who.userId, from, limit, only === "highlight");
    return { ...result };
  });

  router.add("GET", CLIENT_V3, "/pushers", (req) => ({
    pushers: ctx.userData.pushers.list(requester(req).userId),
  }));

  router.add("POST", CLIENT_V3, "/pushers/set", (req) => {
    const who = requester(req);
    const body = requireObject(req.body);
    const str = (name: string): string => {
      const value = body[name];
      if (value === undefined) throw errors.missingParam(name);
      if (typeof value !== "string") throw errors.invalidParam(`'${name}' must be a string`);
      return value;
    };
    const appId = str("app_id");
    const pushkey = str("pushkey");
    const kind = body["kind"];
    if (kind === undefined) throw errors.missingParam("kind");
    if (kind === null) {
      ctx.userData.pushers.remove(who.userId, appId, pushkey);
      return {};
    }
    if (kind !== "http" && kind !== "email") throw errors.invalidParam("Unknown pusher kind");
    const data = body["data"];
    if (data === undefined) throw errors.missingParam("data");
    if (!isJsonObject(data)) throw errors.invalidParam("'data' must be an object");
    if (kind === "http") checkHttpData(data);
    const pusher: Pusher = {
      pushkey,
      kind,
      app_id: appId,
      app_display_name: str("app_display_name"),
      device_display_name: str("device_display_name"),
      lang: str("lang"),
      data: structuredClone(data),
    };
    const tag = body["profile_tag"];
    if (typeof tag === "string") pusher.profile_tag = tag;
    const append = body["append"];
    if (append !== undefined && typeof append !== "boolean")
      throw errors.invalidParam("'append' must be a boolean");
    ctx.userData.pushers.set(who.userId, pusher, append === true);
    return {};
  });
}

function checkHttpData(data: JsonObject): void {
  const url = data["url"];
  if (url === undefined) throw errors.missingParam("url");
  if (typeof url !== "string") throw errors.invalidParam("'url' must be a string");
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw errors.invalidParam("'url' must be an absolute URL");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    throw errors.invalidParam("'url' must be an http or https URL");
  if (parsed.pathname !== PUSH_GATEWAY_PATH)
    throw errors.invalidParam(`'url' must have a path of '${PUSH_GATEWAY_PATH}'`);
}
