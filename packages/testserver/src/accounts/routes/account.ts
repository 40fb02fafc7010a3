/**
 * The account itself: password change (UIA, logout_devices), deactivation
 * (UIA, erase), and leaving rooms on deactivation.
 */
import type { ServerContext } from "../../core/context";
import { errors, MatrixHttpError } from "../../http/errors";
import { CLIENT_V3 } from "../../http/router";
import type { Router } from "../../http/router";
import { objectBody, optBool, optString, requester } from "../body";

/** Leaves every room the user is in; tolerant of a rooms domain that refuses or is not there yet. */
export function leaveAllRooms(ctx: ServerContext, userId: string): void {
  let rooms: Array<{ roomId: string; membership: string }>;
  try {
    rooms = ctx.rooms.roomsForUser(userId);
  } catch {
    return;
  }
  for (const { roomId, membership } of rooms) {
    if (membership !== "join" && membership !== "invite" && membership !== "knock") continue;
    try {
      ctx.rooms.sendAsUser(userId, roomId, "m.room.member", { membership: "leave" }, userId);
    } catch {
      // Best effort: deactivation must succeed even when a room refuses the leave.
    }
  }
}

export function registerAccountRoutes(router: Router, ctx: ServerContext): void {
  router.add(
    "POST",
    CLIENT_V3,
    "/account/password",
    (req) => {
      const body = objectBody(req);
      const newPassword = optString(body, "new_password", 512);
      const logoutDevices = optBool(body, "logout_devices") ?? true;
      let userId: string;
      if (req.requester) {
        userId = req.requester.userId;
        ctx.accounts.uia.check(req, body, { flows: [["m.login.password"]], userId });
      } else {
        const result = ctx.accounts.uia.check(req, body, {
          flows: [["m.login.email.identity"], ["m.login.msisdn"]],
        });
        const t = result.threepids[0];
        const found = t ? ctx.accounts.findByThreepid(t.medium, t.address) : undefined;
        if (!found) throw new MatrixHttpError(400, "M_THREEPID_NOT_FOUND", "Email not found");
        userId = found;
      }
      if (newPassword === undefined) throw errors.missingParam("new_password");
      ctx.accounts.setPassword(userId, newPassword);
      if (logoutDevices) {
        for (const d of ctx.accounts.devicesOf(userId)) {
          if (d.deviceId !== req.requester?.deviceId) ctx.accounts.deleteDevice(userId, d.deviceId);
        }
      }
      return {};
    },
    { auth: "optional" },
  );

  router.add("POST", CLIENT_V3, "/account/deactivate", (req) => {
    const who = requester(req);
    const body = objectBody(req);
    const erase = optBool(body, "erase") ?? false;
    ctx.accounts.uia.check(req, body, { flows: [["m.login.password"]], userId: who.userId });
    leaveAllRooms(ctx, who.userId);
    ctx.accounts.deactivate(who.userId, erase);
    return { id_server_unbind_result: "success" };
  });
}
