/**
 * User directory search. Unlike Synapse's default (users who share a room or
 * are in public rooms), the test server searches every active, non-guest
 * user, so tests can find people before they share a room.
 */
import type { ServerContext } from "../../core/context";
import type { JsonObject } from "../../core/events";
import { errors } from "../../http/errors";
import { CLIENT_V3 } from "../../http/router";
import type { Router } from "../../http/router";
import { objectBody, reqString, requester } from "../body";

export function registerDirectoryRoutes(router: Router, ctx: ServerContext): void {
  router.add("POST", CLIENT_V3, "/user_directory/search", (req) => {
    requester(req);
    const body = objectBody(req);
    const term = reqString(body, "search_term", 1024).trim().toLowerCase();
    const rawLimit = body["limit"];
    if (
      rawLimit !== undefined &&
      (typeof rawLimit !== "number" || !Number.isInteger(rawLimit) || rawLimit < 0)
    ) {
      throw errors.invalidParam("limit must be a non-negative integer");
    }
    const limit = Math.min(typeof rawLimit === "number" ? rawLimit : 10, 1000);
    const matches: JsonObject[] = [];
    for (const user of ctx.accounts.allUsers()) {
      if (user.deactivated || user.isGuest) continue;
      const profile = ctx.accounts.profile(user.userId) ?? {};
      const name = profile.displayname ?? "";
      if (!user.userId.toLowerCase().includes(term) && !name.toLowerCase().includes(term)) continue;
      const result: JsonObject = { user_id: user.userId };
      if (profile.displayname !== undefined) result["display_name"] = profile.displayname;
      if (profile.avatar_url !== undefined) result["avatar_url"] = profile.avatar_url;
      matches.push(result);
    }
    matches.sort((a, b) => String(a["user_id"]).localeCompare(String(b["user_id"])));
    return { results: matches.slice(0, limit), limited: matches.length > limit };
  });
}
