/**
 * Profiles: GET /profile/{userId}, GET/PUT/DELETE per field (displayname,
 * avatar_url and extended MSC4133 fields), and PUT/PATCH of the whole
 * profile; on v3 and under MSC4133's unstable prefix. Display name and
 * avatar changes are propagated to the user's membership events, as
 * Synapse does.
 */
import type { ServerContext } from "../../core/context";
import type { JsonObject } from "../../core/events";
import { errors, MatrixHttpError } from "../../http/errors";
import { CLIENT_V3 } from "../../http/router";
import type { Router } from "../../http/router";
import type { HandlerRequest } from "../../http/types";
import { entries, objectBody, record, requester } from "../body";
import type { UserRecord } from "../store";

/** MSC4133's unstable prefix. */
export const MSC4133_PREFIX = "/_matrix/client/unstable/uk.tcpip.msc4133";
/** The largest profile (all fields, as JSON), per MSC4133. */
export const MAX_PROFILE_BYTES = 65_536;
const MAX_KEY_BYTES = 255;
const PREFIXES = [...CLIENT_V3, MSC4133_PREFIX];

function profileJson(user: UserRecord): JsonObject {
  const out = record<unknown>();
  for (const [k, v] of user.profile) out[k] = v;
  return out;
}

function checkField(key: string, value: unknown): void {
  if (Buffer.byteLength(key) > MAX_KEY_BYTES)
    throw new MatrixHttpError(400, "M_KEY_TOO_LARGE", "Key too large");
  if ((key === "displayname" || key === "avatar_url") && typeof value !== "string") {
    throw errors.invalidParam(`${key} must be a string`);
  }
  if (key === "displayname" && typeof value === "string" && value.length > 256) {
    throw errors.invalidParam("displayname is too long");
  }
}

/** Re-sends the user's member events in joined rooms with the new name and avatar (best effort). */
function propagate(ctx: ServerContext, userId: string): void {
  let rooms: Array<{ roomId: string; membership: string }>;
  try {
    rooms = ctx.rooms.roomsForUser(userId);
  } catch {
    return;
  }
  const profile = ctx.accounts.profile(userId) ?? {};
  for (const { roomId, membership } of rooms) {
    if (membership !== "join") continue;
    try {
      const current = ctx.rooms.currentState(roomId, "m.room.member", userId);
      const content: JsonObject = { ...(current?.content ?? {}), membership: "join" };
      delete content["displayname"];
      delete content["avatar_url"];
      if (profile.displayname !== undefined) content["displayname"] = profile.displayname;
      if (profile.avatar_url !== undefined) content["avatar_url"] = profile.avatar_url;
      ctx.rooms.sendAsUser(userId, roomId, "m.room.member", content, userId);
    } catch {
      // A room that refuses the update keeps the old profile.
    }
  }
}

export function registerProfileRoutes(router: Router, ctx: ServerContext): void {
  ctx.unstableFeatures.set("uk.tcpip.msc4133", true);
  ctx.unstableFeatures.set("uk.tcpip.msc4133.stable", true);

  const target = (req: HandlerRequest, write: boolean): UserRecord => {
    const userId = req.params["userId"] ?? "";
    const user = ctx.accounts.getUser(userId);
    if (write) {
      if (requester(req).userId !== userId)
        throw errors.forbidden("You cannot change another user's profile");
    }
    if (!user || (user.deactivated && user.profile.size === 0 && !write)) {
      throw errors.notFound("Profile was not found");
    }
    return user;
  };

  const commit = (user: UserRecord, next: Map<string, unknown>): void => {
    const size = Buffer.byteLength(JSON.stringify(Object.fromEntries(next)));
    if (size > MAX_PROFILE_BYTES) throw new MatrixHttpError(400, "M_PROFILE_TOO_LARGE", "Profile too large");
    const before = JSON.stringify([user.profile.get("displayname"), user.profile.get("avatar_url")]);
    user.profile = next;
    if (before !== JSON.stringify([next.get("displayname"), next.get("avatar_url")]))
      propagate(ctx, user.userId);
  };

  router.add("GET", PREFIXES, "/profile/:userId", (req) => profileJson(target(req, false)), {
    auth: "optional",
  });

  router.add(
    "GET",
    PREFIXES,
    "/profile/:userId/:key",
    (req) => {
      const user = target(req, false);
      const key = req.params["key"] ?? "";
      if (!user.profile.has(key)) throw errors.notFound("Profile field was not found");
      const out = record<unknown>();
      out[key] = user.profile.get(key);
      return out;
    },
    { auth: "optional" },
  );

  router.add(
    "PUT",
    PREFIXES,
    "/profile/:userId/:key",
    (req) => {
      const user = target(req, true);
      const key = req.params["key"] ?? "";
      // Guests may set their display name and avatar only (guest access module).
      if (req.requester?.isGuest && key !== "displayname" && key !== "avatar_url") {
        throw errors.guestAccessForbidden();
      }
      const body = objectBody(req);
      if (!Object.prototype.hasOwnProperty.call(body, key)) throw errors.missingParam(key);
      const value = body[key];
      checkField(key, value);
      const next = new Map(user.profile);
      next.set(key, value);
      commit(user, next);
      return {};
    },
    { guests: true },
  );

  router.add("DELETE", PREFIXES, "/profile/:userId/:key", (req) => {
    const user = target(req, true);
    const next = new Map(user.profile);
    next.delete(req.params["key"] ?? "");
    commit(user, next);
    return {};
  });

  const whole = (req: HandlerRequest, merge: boolean): JsonObject => {
    const user = target(req, true);
    const body = objectBody(req);
    const next = merge ? new Map(user.profile) : new Map<string, unknown>();
    for (const [k, v] of entries(body)) {
      checkField(k, v);
      next.set(k, v);
    }
    commit(user, next);
    return {};
  };
  router.add("PUT", PREFIXES, "/profile/:userId", (req) => whole(req, false));
  router.add("PATCH", PREFIXES, "/profile/:userId", (req) => whole(req, true));
}
