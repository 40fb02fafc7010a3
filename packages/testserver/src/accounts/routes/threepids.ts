/**
 * Third-party identifiers: list, add (UIA), bind, unbind, delete; the
 * requestToken endpoints for registration, adding a 3PID and password reset
 * (email and msisdn, "sent" through the outbox); and the submitToken page
 * and endpoint that validate a session.
 */
import type { ServerContext } from "../../core/context";
import type { JsonObject } from "../../core/events";
import { errors, MatrixHttpError } from "../../http/errors";
import { CLIENT_V3 } from "../../http/router";
import type { Router } from "../../http/router";
import type { HandlerRequest } from "../../http/types";
import { objectBody, optString, reqString, requester } from "../body";
import { isValidClientSecret, SUBMIT_TOKEN_PATH, toMsisdn } from "../outbox";
import type { Medium, ValidationPurpose } from "../outbox";

const PURPOSES: Array<[string, ValidationPurpose]> = [
  ["/register", "register"],
  ["/account/3pid", "add_threepid"],
  ["/account/password", "password_reset"],
];

function clientSecretOf(body: JsonObject): string {
  const secret = reqString(body, "client_secret", 255);
  if (!isValidClientSecret(secret)) throw errors.invalidParam("Invalid client_secret");
  return secret;
}

function sendAttemptOf(body: JsonObject): number {
  const n = body["send_attempt"];
  if (n === undefined) throw errors.missingParam("send_attempt");
  if (typeof n !== "number" || !Number.isInteger(n))
    throw errors.invalidParam("send_attempt must be an integer");
  return n;
}

export function registerThreepidRoutes(router: Router, ctx: ServerContext): void {
  const bound = new Set<string>();
  const boundKey = (userId: string, medium: string, address: string): string =>
    JSON.stringify([userId, medium, address]);

  for (const [prefix, purpose] of PURPOSES) {
    for (const medium of ["email", "msisdn"] as const) {
      router.add(
        "POST",
        CLIENT_V3,
        `${prefix}/${medium}/requestToken`,
        (req) => requestToken(ctx, req, medium, purpose),
        { auth: "none" },
      );
    }
  }

  router.add("GET", CLIENT_V3, "/account/3pid", (req) => {
    const user = ctx.accounts.getUser(requester(req).userId);
    return { threepids: (user?.threepids ?? []).map((t) => ({ ...t })) };
  });

  router.add("POST", CLIENT_V3, "/account/3pid/add", (req) => {
    const who = requester(req);
    const body = objectBody(req);
    const secret = clientSecretOf(body);
    const sid = reqString(body, "sid", 255);
    ctx.accounts.uia.check(req, body, { flows: [["m.login.password"]], userId: who.userId });
    const session = ctx.accounts.outbox.validated(sid, secret);
    if (!session)
      throw new MatrixHttpError(400, "M_THREEPID_AUTH_FAILED", "Unable to get validated threepid");
    const owner = ctx.accounts.findByThreepid(session.medium, session.address);
    if (owner !== undefined && owner !== who.userId) {
      throw new MatrixHttpError(400, "M_THREEPID_IN_USE", "Third-party identifier is already in use");
    }
    ctx.accounts.addThreepid(who.userId, session.medium, session.address);
    return {};
  });

  router.add("POST", CLIENT_V3, "/account/3pid/bind", (req) => {
    const who = requester(req);
    const body = objectBody(req);
    const secret = clientSecretOf(body);
    const sid = reqString(body, "sid", 255);
    reqString(body, "id_server", 1024);
    reqString(body, "id_access_token", 1024);
    const session = ctx.accounts.outbox.validated(sid, secret);
    if (!session)
      throw new MatrixHttpError(400, "M_THREEPID_AUTH_FAILED", "Unable to get validated threepid");
    bound.add(boundKey(who.userId, session.medium, session.address));
    return {};
  });

  const unbind = (req: HandlerRequest, remove: boolean): JsonObject => {
    const who = requester(req);
    const body = objectBody(req);
    const medium = reqString(body, "medium", 64);
    const address = reqString(body, "address", 1024);
    optString(body, "id_server", 1024);
    if (remove && !ctx.accounts.removeThreepid(who.userId, medium, address)) {
      throw errors.notFound("Third-party identifier not found");
    }
    const normalised = medium === "email" ? address.toLowerCase() : address;
    const wasBound = bound.delete(boundKey(who.userId, medium, normalised));
    return { id_server_unbind_result: wasBound ? "success" : "no-support" };
  };
  router.add("POST", CLIENT_V3, "/account/3pid/unbind", (req) => unbind(req, false));
  router.add("POST", CLIENT_V3, "/account/3pid/delete", (req) => unbind(req, true));

  router.add(
    "GET",
    "",
    SUBMIT_TOKEN_PATH,
    (req) => {
      const ok = ctx.accounts.outbox.submit(
        req.query.get("sid") ?? "",
        req.query.get("client_secret") ?? "",
        req.query.get("token") ?? "",
      );
      const text = ok
        ? "Your address is validated: return to Lattice."
        : "This link is invalid or has expired.";
      return {
        status: ok ? 200 : 400,
        raw: {
          contentType: "text/html; charset=utf-8",
          data: `<!doctype html><title>Validation</title><p>${text}</p>`,
        },
      };
    },
    { auth: "none" },
  );

  router.add(
    "POST",
    "",
    SUBMIT_TOKEN_PATH,
    (req) => {
      const body = objectBody(req);
      const ok = ctx.accounts.outbox.submit(
        reqString(body, "sid", 255),
        reqString(body, "client_secret", 255),
        reqString(body, "token", 255),
      );
      return { success: ok };
    },
    { auth: "none" },
  );
}

function requestToken(
  ctx: ServerContext,
  req: HandlerRequest,
  medium: Medium,
  purpose: ValidationPurpose,
): JsonObject {
  const body = objectBody(req);
  const secret = clientSecretOf(body);
  const attempt = sendAttemptOf(body);
  optString(body, "next_link", 2048);
  let address: string;
  if (medium === "email") {
    address = reqString(body, "email", 512).trim().toLowerCase();
    if (!/^[^@\s]+@[^@\s]+$/.test(address)) throw errors.invalidParam("Unable to parse email address");
  } else {
    const country = reqString(body, "country", 8);
    const phone = reqString(body, "phone_number", 64);
    const msisdn = toMsisdn(country, phone);
    if (msisdn === undefined) throw errors.invalidParam("Unable to parse phone number");
    address = msisdn;
  }
  const owner = ctx.accounts.findByThreepid(medium, address);
  if (purpose === "password_reset" && owner === undefined) {
    throw new MatrixHttpError(
      400,
      "M_THREEPID_NOT_FOUND",
      medium === "email" ? "Email not found" : "Phone number not found",
    );
  }
  if (purpose !== "password_reset" && owner !== undefined) {
    throw new MatrixHttpError(
      400,
      "M_THREEPID_IN_USE",
      medium === "email" ? "Email is already in use" : "Phone number is already in use",
    );
  }
  const session = ctx.accounts.outbox.request(medium, address, secret, attempt, purpose, req.baseUrl);
  const out: JsonObject = { sid: session.sid };
  if (medium === "msisdn") out["submit_url"] = `${req.baseUrl}${SUBMIT_TOKEN_PATH}`;
  return out;
}
