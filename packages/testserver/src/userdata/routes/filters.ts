/**
 * POST /user/{userId}/filter and GET /user/{userId}/filter/{filterId}.
 * Filters are checked for the shapes sync relies on, so a stored filter
 * never breaks a later sync.
 */
import type { ServerContext } from "../../core/context";
import type { JsonObject } from "../../core/events";
import { legacyFilterError } from "../../core/legacy";
import { errors, MatrixHttpError } from "../../http/errors";
import { CLIENT_V3 } from "../../http/router";
import type { Router } from "../../http/router";
import { isJsonObject } from "../../http/types";
import { requireObject, requireSelf } from "./util";

const LIST_FIELDS = ["types", "not_types", "senders", "not_senders", "rooms", "not_rooms"];

function checkEventFilter(filter: unknown, where: string): void {
  if (filter === undefined) return;
  if (!isJsonObject(filter)) throw errors.badJson(`${where} must be an object`);
  for (const field of LIST_FIELDS) {
    const list = filter[field];
    if (list !== undefined && (!Array.isArray(list) || list.some((x) => typeof x !== "string")))
      throw errors.badJson(`${where}.${field} must be a list of strings`);
  }
  const limit = filter["limit"];
  if (limit !== undefined && (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1))
    throw errors.badJson(`${where}.limit must be a positive integer`);
  for (const flag of [
    "lazy_load_members",
    "include_redundant_members",
    "contains_url",
    "unread_thread_notifications",
    "include_leave",
  ]) {
    if (filter[flag] !== undefined && typeof filter[flag] !== "boolean")
      throw errors.badJson(`${where}.${flag} must be a boolean`);
  }
}

/** Validates a sync filter's shape (definitions/sync_filter.yaml); throws 400 M_BAD_JSON. */
export function validateFilter(filter: JsonObject): void {
  const fields = filter["event_fields"];
  if (fields !== undefined && (!Array.isArray(fields) || fields.some((x) => typeof x !== "string")))
    throw errors.badJson("event_fields must be a list of strings");
  const format = filter["event_format"];
  if (format !== undefined && format !== "client" && format !== "federation")
    throw errors.badJson("event_format must be 'client' or 'federation'");
  checkEventFilter(filter["presence"], "presence");
  checkEventFilter(filter["account_data"], "account_data");
  const room = filter["room"];
  if (room === undefined) return;
  checkEventFilter(room, "room");
  if (!isJsonObject(room)) return;
  for (const part of ["state", "timeline", "ephemeral", "account_data"])
    checkEventFilter(room[part], `room.${part}`);
}

export function registerFilterRoutes(router: Router, ctx: ServerContext): void {
  router.add(
    "POST",
    CLIENT_V3,
    "/user/:userId/filter",
    (req) => {
      const userId = req.params["userId"] ?? "";
      requireSelf(req, userId, "Can only create filters for your own user");
      const filter = requireObject(req.body);
      // Synapse 1.67's schema refuses any field it does not know, with its jsonschema message.
      const refusal = ctx.config.profile === "legacy" ? legacyFilterError(filter) : undefined;
      if (refusal !== undefined) throw new MatrixHttpError(400, "M_UNKNOWN", refusal);
      validateFilter(filter);
      return { filter_id: ctx.userData.filters.add(userId, filter) };
    },
    { guests: true },
  );

  router.add(
    "GET",
    CLIENT_V3,
    "/user/:userId/filter/:filterId",
    (req) => {
      const userId = req.params["userId"] ?? "";
      requireSelf(req, userId, "Cannot get filters for other users");
      const filter = ctx.userData.filter(userId, req.params["filterId"] ?? "");
      if (!filter) throw errors.notFound("No such filter");
      // Wrapped: a filter with a "status" key must not be taken for a HandlerResponse.
      return { status: 200, body: filter };
    },
    { guests: true },
  );
}
