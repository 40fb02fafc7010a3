/**
 * The admin calls a client makes: Synapse's admin check, whois, and
 * Synapse's deactivate. Admins are made through the handle (makeAdmin).
 */
import type { ServerContext } from "../../core/context";
import type { JsonObject } from "../../core/events";
import { errors } from "../../http/errors";
import { CLIENT_V3 } from "../../http/router";
import type { Router } from "../../http/router";
import type { HandlerRequest } from "../../http/types";
import { objectBody, optBool, record, requester } from "../body";
import { leaveAllRooms } from "./account";

const SYNAPSE_ADMIN = "/_synapse/admin/v1";

export function registerAdminRoutes(router: Router, ctx: ServerContext): void {
  const requireAdmin = (req: HandlerRequest): void => {
    if (!ctx.accounts.isAdmin(requester(req).userId)) throw errors.forbidden("You are not a server admin");
  };
  const targetUser = (req: HandlerRequest): string => {
    const userId = req.params["userId"] ?? "";
    if (!ctx.accounts.getUser(userId)) throw errors.notFound("User not found");
    return userId;
  };

  router.add("GET", SYNAPSE_ADMIN, "/users/:userId/admin", (req) => {
    requireAdmin(req);
    return { admin: ctx.accounts.isAdmin(targetUser(req)) };
  });

  router.add("PUT", SYNAPSE_ADMIN, "/users/:userId/admin", (req) => {
    requireAdmin(req);
    const admin = optBool(objectBody(req), "admin");
    if (admin === undefined) throw errors.missingParam("admin");
    ctx.accounts.setAdmin(targetUser(req), admin);
    return {};
  });

  router.add("GET", CLIENT_V3, "/admin/whois/:userId", (req) => {
    const who = requester(req);
    const userId = req.params["userId"] ?? "";
    if (who.userId !== userId) requireAdmin(req);
    targetUser(req);
    const devices = record<JsonObject>();
    for (const d of ctx.accounts.devicesOf(userId)) {
      devices[d.deviceId] = {
        sessions: [{ connections: [{ ip: d.lastSeenIp, last_seen: d.lastSeenTs, user_agent: "Lattice" }] }],
      };
    }
    return { user_id: userId, devices };
  });

  router.add("POST", SYNAPSE_ADMIN, "/deactivate/:userId", (req) => {
    requireAdmin(req);
    const userId = targetUser(req);
    const erase = optBool(objectBody(req), "erase") ?? false;
    leaveAllRooms(ctx, userId);
    ctx.accounts.deactivate(userId, erase);
    return { id_server_unbind_result: "success" };
  });
}
