/**
 * Aliases (PUT/GET/DELETE /directory/room/{alias}, GET /rooms/{id}/aliases),
 * the room directory's visibility (/directory/list/room/{id}) and the
 * public rooms list (GET and POST /publicRooms with a filter).
 */
import type { ServerContext } from "../../core/context";
import type { JsonObject } from "../../core/events";
import { errors, MatrixHttpError } from "../../http/errors";
import type { Router } from "../../http/router";
import { CLIENT_V3 } from "../../http/router";
import type { HandlerRequest } from "../../http/types";
import { isJsonObject } from "../../http/types";
import { PowerLevels } from "../power";
import { publicChunk, roomType } from "../room-info";
import { stateReadableUntil } from "../visibility";
import { bodyObject, intQuery, requester } from "./util";

function checkAlias(ctx: ServerContext, alias: string): void {
  if (!/^#[^:\s]+:.+$/.test(alias))
    throw errors.invalidParam("Room alias must be of the form #localpart:server");
  if (!alias.endsWith(`:${ctx.serverName}`)) throw errors.invalidParam("Room alias must be on this server");
}

export function registerDirectoryRoutes(router: Router, ctx: ServerContext): void {
  const store = ctx.rooms;

  router.add("PUT", CLIENT_V3, "/directory/room/:alias", (req) => {
    const me = requester(req);
    const alias = req.params["alias"] ?? "";
    checkAlias(ctx, alias);
    const body = bodyObject(req);
    const roomId = body["room_id"];
    if (typeof roomId !== "string") throw errors.badJson("room_id must be a string");
    store.require(roomId);
    if (store.aliases.has(alias))
      throw new MatrixHttpError(409, "M_UNKNOWN", `Room alias ${alias} already exists`);
    store.aliases.set(alias, { roomId, creator: me.userId });
    return {};
  });

  router.add(
    "GET",
    CLIENT_V3,
    "/directory/room/:alias",
    (req) => {
      const alias = req.params["alias"] ?? "";
      const entry = store.aliases.get(alias);
      if (!entry) throw errors.notFound(`Room alias ${alias} not found`);
      return { room_id: entry.roomId, servers: [ctx.serverName] };
    },
    { auth: "optional" },
  );

  router.add("DELETE", CLIENT_V3, "/directory/room/:alias", (req) => {
    const me = requester(req);
    const alias = req.params["alias"] ?? "";
    const entry = store.aliases.get(alias);
    if (!entry) throw errors.notFound(`Room alias ${alias} not found`);
    const room = store.rooms.get(entry.roomId);
    const pl = room ? PowerLevels.of(room) : undefined;
    const mayModerate =
      pl !== undefined && pl.userLevel(me.userId) >= pl.eventLevel("m.room.canonical_alias", true);
    if (entry.creator !== me.userId && !mayModerate)
      throw errors.forbidden("You don't have permission to delete the alias.");
    store.aliases.delete(alias);
    return {};
  });

  router.add(
    "GET",
    CLIENT_V3,
    "/rooms/:roomId/aliases",
    (req) => {
      const me = requester(req);
      const room = store.require(req.params["roomId"] ?? "");
      if (stateReadableUntil(room, me.userId) === undefined)
        throw errors.forbidden("You are not in the room");
      const aliases = [...store.aliases].filter(([, e]) => e.roomId === room.roomId).map(([a]) => a);
      return { aliases };
    },
    { guests: true },
  );

  router.add(
    "GET",
    CLIENT_V3,
    "/directory/list/room/:roomId",
    (req) => {
      const room = store.rooms.get(req.params["roomId"] ?? "");
      if (!room) throw errors.notFound("Unknown room");
      return { visibility: room.directory };
    },
    { auth: "none" },
  );

  router.add("PUT", CLIENT_V3, "/directory/list/room/:roomId", (req) => {
    const me = requester(req);
    const room = store.require(req.params["roomId"] ?? "");
    const body = bodyObject(req);
    const visibility = body["visibility"] ?? "public";
    if (visibility !== "public" && visibility !== "private")
      throw errors.badJson("visibility must be public or private");
    const pl = PowerLevels.of(room);
    if (
      store.membershipOf(room.roomId, me.userId) !== "join" ||
      pl.userLevel(me.userId) < pl.eventLevel("m.room.canonical_alias", true)
    )
      throw errors.forbidden("You don't have permission to change the room's directory visibility");
    room.directory = visibility;
    return {};
  });

  const publicRooms = (req: HandlerRequest, body: JsonObject): JsonObject => {
    const server = req.query.get("server");
    if (server !== null && server !== ctx.serverName) throw errors.notFound("Unknown server");
    const limitRaw = body["limit"];
    let limit = intQuery(req, "limit", 100, 0, 500);
    if (limitRaw !== undefined) {
      if (typeof limitRaw !== "number" || !Number.isInteger(limitRaw) || limitRaw < 0)
        throw errors.badJson("limit must be a non-negative integer");
      limit = Math.min(limitRaw, 500);
    }
    const sinceRaw = typeof body["since"] === "string" ? body["since"] : req.query.get("since");
    let offset = 0;
    if (sinceRaw) {
      if (!/^p\d{1,9}$/.test(sinceRaw)) throw errors.invalidParam("Invalid since token");
      offset = Number.parseInt(sinceRaw.slice(1), 10);
    }
    const filter = body["filter"];
    if (filter !== undefined && !isJsonObject(filter)) throw errors.badJson("filter must be an object");
    const term =
      isJsonObject(filter) && typeof filter["generic_search_term"] === "string"
        ? filter["generic_search_term"].toLowerCase()
        : "";
    const types = isJsonObject(filter) ? filter["room_types"] : undefined;
    if (
      types !== undefined &&
      (!Array.isArray(types) || types.some((t) => t !== null && typeof t !== "string"))
    )
      throw errors.badJson("room_types must be a list of strings or null");
    const all = [...store.rooms.values()]
      .filter((room) => room.directory === "public")
      .map(publicChunk)
      .filter((c) => {
        if (
          term &&
          ![c["name"], c["topic"], c["canonical_alias"]].some(
            (v) => typeof v === "string" && v.toLowerCase().includes(term),
          )
        )
          return false;
        if (Array.isArray(types)) {
          const type = roomType(store.require(String(c["room_id"]))) ?? null;
          if (!types.includes(type)) return false;
        }
        return true;
      })
      .sort(
        (a, b) =>
          Number(b["num_joined_members"]) - Number(a["num_joined_members"]) ||
          String(a["room_id"]).localeCompare(String(b["room_id"])),
      );
    const chunk = all.slice(offset, offset + limit);
    const out: JsonObject = { chunk, total_room_count_estimate: all.length };
    if (offset + limit < all.length) out["next_batch"] = `p${offset + limit}`;
    if (offset > 0) out["prev_batch"] = `p${Math.max(0, offset - limit)}`;
    return out;
  };
  router.add("GET", CLIENT_V3, "/publicRooms", (req) => publicRooms(req, {}), { auth: "optional" });
  router.add("POST", CLIENT_V3, "/publicRooms", (req) => publicRooms(req, bodyObject(req)), { guests: true });
}
