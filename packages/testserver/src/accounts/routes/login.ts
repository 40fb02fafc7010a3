/**
 * Sessions: GET/POST /login (password with m.id.user, m.id.thirdparty,
 * m.id.phone and the legacy fields; m.login.token), /refresh on v3 and v1,
 * /logout, /logout/all, /account/whoami and POST /login/get_token (v1, UIA).
 */
import type { ServerContext } from "../../core/context";
import type { JsonObject } from "../../core/events";
import { errors, MatrixHttpError } from "../../http/errors";
import { CLIENT_V1, CLIENT_V3 } from "../../http/router";
import type { Router } from "../../http/router";
import type { HandlerRequest } from "../../http/types";
import { objectBody, optBool, optString, reqString, requester } from "../body";
import { SSO_IDP } from "./sso";

const invalidLogin = (): MatrixHttpError =>
  new MatrixHttpError(403, "M_FORBIDDEN", "Invalid username or password");

const userDeactivated = (): MatrixHttpError =>
  new MatrixHttpError(403, "M_USER_DEACTIVATED", "This account has been deactivated");

export function registerLoginRoutes(router: Router, ctx: ServerContext): void {
  router.add(
    "GET",
    CLIENT_V3,
    "/login",
    () => ({
      flows: [
        { type: "m.login.password" },
        { type: "m.login.token", get_login_token: true },
        { type: "m.login.sso", identity_providers: [SSO_IDP] },
      ],
    }),
    { auth: "none" },
  );

  router.add(
    "POST",
    CLIENT_V3,
    "/login",
    (req) => {
      const body = objectBody(req);
      const type = reqString(body, "type", 255);
      const deviceId = optString(body, "device_id", 255);
      const displayName = optString(body, "initial_device_display_name", 1024);
      const refresh = optBool(body, "refresh_token") ?? false;
      let userId: string | undefined;
      if (type === "m.login.password") {
        const password = reqString(body, "password", 512);
        const who = ctx.accounts.resolve(body, { deactivated: true });
        if (!who.given) throw errors.missingParam("identifier");
        userId = who.userId;
        // A deactivated (or erased) account has no password left: like Synapse, say why rather than M_FORBIDDEN.
        if (userId && ctx.accounts.getUser(userId)?.deactivated) throw userDeactivated();
        if (!userId || !ctx.accounts.checkPassword(userId, password)) throw invalidLogin();
      } else if (type === "m.login.token") {
        const token = reqString(body, "token", 1024);
        userId = ctx.accounts.tokens.consumeLoginToken(token);
        if (userId && ctx.accounts.getUser(userId)?.deactivated) throw userDeactivated();
        if (!userId || !ctx.accounts.userExists(userId)) {
          throw new MatrixHttpError(403, "M_FORBIDDEN", "Invalid login token");
        }
      } else {
        throw new MatrixHttpError(400, "M_UNKNOWN", "Unknown login type");
      }
      const result = ctx.accounts.login(userId, { deviceId, displayName, refresh });
      return { ...result, well_known: { "m.homeserver": { base_url: req.baseUrl } } };
    },
    { auth: "none" },
  );

  const refresh = (req: HandlerRequest): JsonObject => {
    const body = objectBody(req);
    const token = reqString(body, "refresh_token", 1024);
    const rotated = ctx.accounts.tokens.rotate(token);
    if (!rotated || !ctx.accounts.device(rotated.userId, rotated.deviceId)) {
      throw new MatrixHttpError(401, "M_UNKNOWN_TOKEN", "Unknown refresh token", { soft_logout: false });
    }
    return {
      access_token: rotated.access_token,
      refresh_token: rotated.refresh_token,
      expires_in_ms: rotated.expires_in_ms,
    };
  };
  router.add("POST", CLIENT_V3, "/refresh", refresh, { auth: "none" });
  router.add("POST", CLIENT_V1, "/refresh", refresh, { auth: "none" });

  router.add(
    "POST",
    CLIENT_V3,
    "/logout",
    (req) => {
      const who = requester(req);
      ctx.accounts.deleteDevice(who.userId, who.deviceId);
      return {};
    },
    { guests: true },
  );

  router.add(
    "POST",
    CLIENT_V3,
    "/logout/all",
    (req) => {
      const who = requester(req);
      for (const d of ctx.accounts.devicesOf(who.userId)) ctx.accounts.deleteDevice(who.userId, d.deviceId);
      return {};
    },
    { guests: true },
  );

  router.add(
    "GET",
    CLIENT_V3,
    "/account/whoami",
    (req) => {
      const who = requester(req);
      return { user_id: who.userId, device_id: who.deviceId, is_guest: who.isGuest };
    },
    { guests: true },
  );

  router.add("POST", CLIENT_V1, "/login/get_token", (req) => {
    const who = requester(req);
    ctx.accounts.uia.check(req, objectBody(req), { flows: [["m.login.password"]], userId: who.userId });
    const issued = ctx.accounts.tokens.issueLoginToken(who.userId);
    return { login_token: issued.token, expires_in_ms: issued.expiresInMs };
  });
}
