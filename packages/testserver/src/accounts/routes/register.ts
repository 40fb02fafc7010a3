/**
 * Registration: POST /register (interactive auth with the configured flows,
 * guests with kind=guest, inhibit_login, refresh tokens),
 * GET /register/available, and the registration token validity check.
 */
import type { ServerContext } from "../../core/context";
import { errors, MatrixHttpError } from "../../http/errors";
import { CLIENT_V1, CLIENT_V3 } from "../../http/router";
import type { Router } from "../../http/router";
import { objectBody, optBool, optString } from "../body";
import { TERMS_PATH } from "../uia";

/** Synapse's localpart rule: lowercase letters, digits and ._=-/+ ; not starting with "_". */
const LOCALPART = /^[a-z0-9._=\-/+]+$/;

/** Throws M_INVALID_USERNAME or M_USER_IN_USE for a desired localpart. */
export function checkUsername(ctx: ServerContext, localpart: string): void {
  if (!LOCALPART.test(localpart)) {
    throw new MatrixHttpError(
      400,
      "M_INVALID_USERNAME",
      "User ID can only contain characters a-z, 0-9, or '=_-./+'",
    );
  }
  if (localpart.startsWith("_")) {
    throw new MatrixHttpError(400, "M_INVALID_USERNAME", "User ID may not begin with _");
  }
  if (/^[0-9]+$/.test(localpart)) {
    throw new MatrixHttpError(400, "M_INVALID_USERNAME", "Numeric user IDs are reserved for guest users.");
  }
  if (`@${localpart}:${ctx.serverName}`.length > 255) {
    throw new MatrixHttpError(400, "M_INVALID_USERNAME", "User ID may not be longer than 255 characters");
  }
  if (ctx.accounts.getUser(ctx.accounts.userIdFor(localpart))) {
    throw new MatrixHttpError(400, "M_USER_IN_USE", "User ID already taken.");
  }
}

export function registerRegisterRoutes(router: Router, ctx: ServerContext): void {
  router.add(
    "POST",
    CLIENT_V3,
    "/register",
    (req) => {
      const body = objectBody(req);
      const kind = req.query.get("kind") ?? "user";
      if (kind !== "user" && kind !== "guest") throw errors.invalidParam("kind must be user or guest");
      const deviceId = optString(body, "device_id", 255);
      const displayName = optString(body, "initial_device_display_name", 1024);
      const refresh = optBool(body, "refresh_token") ?? false;
      const inhibitLogin = optBool(body, "inhibit_login") ?? false;

      if (kind === "guest") {
        const user = ctx.accounts.createUser(ctx.accounts.nextNumericLocalpart(), { isGuest: true });
        return ctx.accounts.login(user.userId, { deviceId, displayName, refresh });
      }

      const username = optString(body, "username", 1024);
      const password = optString(body, "password", 512);
      if (username !== undefined) checkUsername(ctx, username);
      const result = ctx.accounts.uia.check(req, body, {
        flows: ctx.config.registrationFlows,
        registrationPassword: password,
      });
      // The name may have been taken while the client went through the stages.
      if (username !== undefined) checkUsername(ctx, username);
      const user = ctx.accounts.createUser(username ?? ctx.accounts.nextNumericLocalpart(), { password });
      for (const t of result.threepids) ctx.accounts.addThreepid(user.userId, t.medium, t.address);
      if (inhibitLogin) return { user_id: user.userId };
      return ctx.accounts.login(user.userId, { deviceId, displayName, refresh });
    },
    { auth: "none" },
  );

  router.add(
    "GET",
    "",
    TERMS_PATH,
    () => ({
      raw: {
        contentType: "text/html; charset=utf-8",
        data: "<!doctype html><title>Privacy Policy</title><h1>Privacy Policy 1.0</h1><p>The Lattice test server keeps everything in memory and forgets it when it stops.</p>",
      },
    }),
    { auth: "none" },
  );

  router.add(
    "GET",
    CLIENT_V3,
    "/register/available",
    (req) => {
      const username = req.query.get("username");
      if (username === null) throw errors.missingParam("username");
      checkUsername(ctx, username);
      return { available: true };
    },
    { auth: "none" },
  );

  router.add(
    "GET",
    CLIENT_V1,
    "/register/m.login.registration_token/validity",
    (req) => {
      const token = req.query.get("token");
      if (token === null) throw errors.missingParam("token");
      return { valid: ctx.config.registrationTokens.includes(token) };
    },
    { auth: "none" },
  );
}
