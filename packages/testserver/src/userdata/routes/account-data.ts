/**
 * Account data and tags: PUT/GET /user/{userId}/account_data/{type}, the
 * room variants, MSC3391 deletion on its unstable prefix, and
 * GET/PUT/DELETE /user/{userId}/rooms/{roomId}/tags[/{tag}] (kept as m.tag
 * room account data).
 */
import type { ServerContext } from "../../core/context";
import type { JsonObject } from "../../core/events";
import { MatrixHttpError, errors } from "../../http/errors";
import { CLIENT_V3 } from "../../http/router";
import type { Router } from "../../http/router";
import type { HandlerRequest, HandlerResponse } from "../../http/types";
import { isJsonObject } from "../../http/types";
import { SERVER_CONTROLLED_TYPES } from "../account-data";
import { hasOwn, requireObject, requireRoomId, requireSelf, setOwn } from "./util";

/** MSC3391 (account data deletion), unstable prefix. */
export const MSC3391_PREFIX = "/_matrix/client/unstable/org.matrix.msc3391";

const FORBIDDEN_OTHERS = "Cannot access account data of other users.";

function param(req: HandlerRequest, name: string): string {
  return req.params[name] ?? "";
}

function checkWritable(type: string): void {
  if (SERVER_CONTROLLED_TYPES.has(type))
    throw new MatrixHttpError(405, "M_BAD_JSON", `Cannot set ${type} through this API.`);
}

/**
 * The stored content as the response. Deleted (emptied) account data reads
 * as missing, as in Synapse with MSC3391. Wrapped, so user content with a
 * "status" or "raw" key is never taken for a HandlerResponse.
 */
function found(content: JsonObject | undefined): HandlerResponse {
  if (!content || Object.keys(content).length === 0) throw errors.notFound("Account data not found");
  return { status: 200, body: content };
}

export function registerAccountDataRoutes(router: Router, ctx: ServerContext): void {
  const data = ctx.userData.accountData;
  const opts = { guests: true };

  router.add(
    "PUT",
    CLIENT_V3,
    "/user/:userId/account_data/:type",
    (req) => {
      const userId = param(req, "userId");
      requireSelf(req, userId, FORBIDDEN_OTHERS);
      const type = param(req, "type");
      checkWritable(type);
      data.setGlobal(userId, type, requireObject(req.body));
      return {};
    },
    opts,
  );

  router.add(
    "GET",
    CLIENT_V3,
    "/user/:userId/account_data/:type",
    (req) => {
      const userId = param(req, "userId");
      requireSelf(req, userId, FORBIDDEN_OTHERS);
      const type = param(req, "type");
      if (type === "m.push_rules") return { global: ctx.userData.pushRules.ruleset(userId) };
      return found(data.getGlobal(userId, type));
    },
    opts,
  );

  router.add(
    "PUT",
    CLIENT_V3,
    "/user/:userId/rooms/:roomId/account_data/:type",
    (req) => {
      const userId = param(req, "userId");
      requireSelf(req, userId, FORBIDDEN_OTHERS);
      const roomId = requireRoomId(param(req, "roomId"));
      const type = param(req, "type");
      checkWritable(type);
      data.setRoom(userId, roomId, type, requireObject(req.body));
      return {};
    },
    opts,
  );

  router.add(
    "GET",
    CLIENT_V3,
    "/user/:userId/rooms/:roomId/account_data/:type",
    (req) => {
      const userId = param(req, "userId");
      requireSelf(req, userId, FORBIDDEN_OTHERS);
      const roomId = requireRoomId(param(req, "roomId"));
      return found(data.getRoom(userId, roomId, param(req, "type")));
    },
    opts,
  );

  // MSC3391: deleting sets the content to {}, which other clients see in sync.
  router.add(
    "DELETE",
    MSC3391_PREFIX,
    "/user/:userId/account_data/:type",
    (req) => {
      const userId = param(req, "userId");
      requireSelf(req, userId, FORBIDDEN_OTHERS);
      const type = param(req, "type");
      checkWritable(type);
      if (data.getGlobal(userId, type) !== undefined) data.setGlobal(userId, type, {});
      return {};
    },
    opts,
  );

  router.add(
    "DELETE",
    MSC3391_PREFIX,
    "/user/:userId/rooms/:roomId/account_data/:type",
    (req) => {
      const userId = param(req, "userId");
      requireSelf(req, userId, FORBIDDEN_OTHERS);
      const roomId = requireRoomId(param(req, "roomId"));
      const type = param(req, "type");
      checkWritable(type);
      if (data.getRoom(userId, roomId, type) !== undefined) data.setRoom(userId, roomId, type, {});
      return {};
    },
    opts,
  );

  registerTagRoutes(router, ctx);
}

function registerTagRoutes(router: Router, ctx: ServerContext): void {
  const data = ctx.userData.accountData;
  const tagsOf = (userId: string, roomId: string): JsonObject => {
    const tags = data.getRoom(userId, roomId, "m.tag")?.["tags"];
    return isJsonObject(tags) ? tags : {};
  };

  router.add(
    "GET",
    CLIENT_V3,
    "/user/:userId/rooms/:roomId/tags",
    (req) => {
      const userId = param(req, "userId");
      requireSelf(req, userId, "Cannot get tags for other users.");
      return { tags: tagsOf(userId, requireRoomId(param(req, "roomId"))) };
    },
    { guests: true },
  );

  router.add(
    "PUT",
    CLIENT_V3,
    "/user/:userId/rooms/:roomId/tags/:tag",
    (req) => {
      const userId = param(req, "userId");
      requireSelf(req, userId, "Cannot add tags for other users.");
      const roomId = requireRoomId(param(req, "roomId"));
      const body = requireObject(req.body);
      const order = body["order"];
      if (order !== undefined && (typeof order !== "number" || !Number.isFinite(order)))
        throw errors.invalidParam("'order' must be a number");
      const tags = tagsOf(userId, roomId);
      setOwn(tags, param(req, "tag"), body);
      data.setRoom(userId, roomId, "m.tag", { tags });
      return {};
    },
    { guests: true },
  );

  router.add(
    "DELETE",
    CLIENT_V3,
    "/user/:userId/rooms/:roomId/tags/:tag",
    (req) => {
      const userId = param(req, "userId");
      requireSelf(req, userId, "Cannot remove tags for other users.");
      const roomId = requireRoomId(param(req, "roomId"));
      const tags = tagsOf(userId, roomId);
      const tag = param(req, "tag");
      if (hasOwn(tags, tag)) {
        delete tags[tag];
        data.setRoom(userId, roomId, "m.tag", { tags });
      }
      return {};
    },
    { guests: true },
  );
}
