/**
 * timestamp_to_event (v1 and the unstable MSC3030 path) and content
 * reports (an event, or a whole room).
 */
import type { ServerContext } from "../../core/context";
import type { JsonObject } from "../../core/events";
import { errors } from "../../http/errors";
import type { Router } from "../../http/router";
import { CLIENT_V1, CLIENT_V3 } from "../../http/router";
import type { HandlerRequest } from "../../http/types";
import { canSee } from "../visibility";
import { bodyObject, requester } from "./util";

export function registerLookupRoutes(router: Router, ctx: ServerContext): void {
  const byTimestamp = (req: HandlerRequest): JsonObject => {
    const me = requester(req);
    const room = ctx.rooms.require(req.params["roomId"] ?? "");
    const tsRaw = req.query.get("ts");
    if (tsRaw === null) throw errors.missingParam("ts");
    if (!/^\d+$/.test(tsRaw)) throw errors.invalidParam("ts must be an integer");
    const ts = Number.parseInt(tsRaw, 10);
    const dir = req.query.get("dir");
    if (dir === null) throw errors.missingParam("dir");
    if (dir !== "f" && dir !== "b") throw errors.invalidParam("dir must be f or b");
    const visible = room.events.filter((e) => canSee(room, me.userId, e));
    const found =
      dir === "f"
        ? visible.find((e) => e.origin_server_ts >= ts)
        : [...visible].reverse().find((e) => e.origin_server_ts <= ts);
    if (!found) throw errors.notFound(`Unable to find event from ${ts} in direction ${dir}`);
    return { event_id: found.event_id, origin_server_ts: found.origin_server_ts };
  };
  router.add("GET", CLIENT_V1, "/rooms/:roomId/timestamp_to_event", byTimestamp, { guests: true });
  router.add(
    "GET",
    "/_matrix/client/unstable/org.matrix.msc3030",
    "/rooms/:roomId/timestamp_to_event",
    byTimestamp,
    {
      guests: true,
    },
  );

  router.add("POST", CLIENT_V3, "/rooms/:roomId/report/:eventId", (req) => {
    const me = requester(req);
    const body = bodyObject(req);
    const room = ctx.rooms.require(req.params["roomId"] ?? "");
    const ev = room.byId.get(req.params["eventId"] ?? "");
    if (!ev || !canSee(room, me.userId, ev))
      throw errors.notFound("Unable to report event: it does not exist or you aren't able to see it.");
    const reason = body["reason"];
    const score = body["score"];
    if (reason !== undefined && typeof reason !== "string") throw errors.badJson("reason must be a string");
    if (score !== undefined && (typeof score !== "number" || score < -100 || score > 0))
      throw errors.badJson("score must be an integer between -100 and 0");
    ctx.rooms.reports.push({
      roomId: room.roomId,
      eventId: ev.event_id,
      reporter: me.userId,
      ts: ctx.clock.now(),
      ...(reason !== undefined ? { reason } : {}),
      ...(score !== undefined ? { score } : {}),
    });
    return {};
  });

  router.add("POST", CLIENT_V3, "/rooms/:roomId/report", (req) => {
    const me = requester(req);
    const body = bodyObject(req);
    const room = ctx.rooms.require(req.params["roomId"] ?? "");
    const reason = body["reason"];
    if (reason !== undefined && typeof reason !== "string") throw errors.badJson("reason must be a string");
    ctx.rooms.reports.push({
      roomId: room.roomId,
      reporter: me.userId,
      ts: ctx.clock.now(),
      ...(reason !== undefined ? { reason } : {}),
    });
    return {};
  });
}
