/**
 * Sending: room events with per-device transaction idempotency, state
 * events (PUT and GET, including the empty state key), the full state, and
 * redactions.
 */
import type { ServerContext } from "../../core/context";
import type { JsonObject } from "../../core/events";
import { errors, MatrixHttpError } from "../../http/errors";
import type { Router } from "../../http/router";
import { CLIENT_V3 } from "../../http/router";
import type { Requester } from "../../http/types";
import { formatEvent } from "../format";
import type { Room } from "../room";
import { stateKey } from "../room";
import { stateReadableUntil } from "../visibility";
import { bodyObject, requester } from "./util";

/** Sends once per (device, endpoint, txnId): a retry answers the first event id. */
function idempotent(room: Room, me: Requester, scope: string, txnId: string, send: () => string): string {
  const key = `${me.userId}\u0000${me.deviceId}\u0000${scope}\u0000${txnId}`;
  const known = room.txns.get(key);
  if (known !== undefined) return known;
  const id = send();
  room.txns.set(key, id);
  return id;
}

export function registerSendRoutes(router: Router, ctx: ServerContext): void {
  const store = ctx.rooms;

  router.add(
    "PUT",
    CLIENT_V3,
    "/rooms/:roomId/send/:eventType/:txnId",
    (req) => {
      const me = requester(req);
      const room = store.require(req.params["roomId"] ?? "");
      const type = req.params["eventType"] ?? "";
      const txnId = req.params["txnId"] ?? "";
      const content = bodyObject(req);
      // MSC4140: a delay query schedules the event instead of sending it.
      const delayed = ctx.userData.scheduleFromQuery(
        me.userId,
        room.roomId,
        type,
        content,
        undefined,
        req.query,
      );
      if (delayed) return delayed;
      const eventId = idempotent(
        room,
        me,
        `send\u0000${type}`,
        txnId,
        () =>
          store.append(
            room,
            { type, sender: me.userId, content },
            { txn: { userId: me.userId, deviceId: me.deviceId, txnId } },
          ).event_id,
      );
      return { event_id: eventId };
    },
    { guests: true },
  );

  router.add(
    "PUT",
    CLIENT_V3,
    "/rooms/:roomId/redact/:eventId/:txnId",
    (req) => {
      const me = requester(req);
      const room = store.require(req.params["roomId"] ?? "");
      const target = req.params["eventId"] ?? "";
      const txnId = req.params["txnId"] ?? "";
      const body = bodyObject(req);
      const content: JsonObject = { redacts: target };
      if (body["reason"] !== undefined) {
        if (typeof body["reason"] !== "string") throw errors.badJson("reason must be a string");
        content["reason"] = body["reason"];
      }
      const eventId = idempotent(
        room,
        me,
        "redact",
        txnId,
        () =>
          store.append(
            room,
            { type: "m.room.redaction", sender: me.userId, content },
            {
              txn: { userId: me.userId, deviceId: me.deviceId, txnId },
            },
          ).event_id,
      );
      return { event_id: eventId };
    },
    { guests: true },
  );

  router.add("PUT", CLIENT_V3, "/rooms/:roomId/state/:eventType/*stateKey", (req) => {
    const me = requester(req);
    const room = store.require(req.params["roomId"] ?? "");
    const type = req.params["eventType"] ?? "";
    const key = req.params["stateKey"] ?? "";
    const content = bodyObject(req);
    const delayed = ctx.userData.scheduleFromQuery(me.userId, room.roomId, type, content, key, req.query);
    if (delayed) return delayed;
    const current = room.state.get(stateKey(type, key));
    // Synapse answers an unchanged state event with the existing event id.
    if (
      current &&
      current.sender === me.userId &&
      JSON.stringify(current.content) === JSON.stringify(content)
    )
      return { event_id: current.event_id };
    // A joined member may update their own member event (per-room name and picture, /myroomnick),
    // as Synapse allows; any change of membership goes through the membership endpoints.
    const ownProfileUpdate =
      key === me.userId && content["membership"] === "join" && current?.content["membership"] === "join";
    if (type === "m.room.member" && !ownProfileUpdate)
      throw errors.forbidden("Use the membership endpoints to change membership");
    if (type === "m.room.create") throw errors.forbidden("Cannot send a second create event");
    if (type === "m.room.canonical_alias" && key === "") checkCanonicalAlias(ctx, room.roomId, content);
    const ev = store.append(room, { type, sender: me.userId, content, state_key: key });
    return { event_id: ev.event_id };
  });

  router.add(
    "GET",
    CLIENT_V3,
    "/rooms/:roomId/state/:eventType/*stateKey",
    (req) => {
      const me = requester(req);
      const room = store.require(req.params["roomId"] ?? "");
      const until = stateReadableUntil(room, me.userId);
      if (until === undefined) throw errors.forbidden(`User ${me.userId} not in room ${room.roomId}`);
      const type = req.params["eventType"] ?? "";
      const key = req.params["stateKey"] ?? "";
      const ev =
        until === Number.POSITIVE_INFINITY
          ? room.state.get(stateKey(type, key))
          : room.stateEventAt(type, key, until);
      if (!ev) throw errors.notFound("Event not found.");
      const format = req.query.get("format");
      if (format === "event") return formatEvent(ctx, room, ev, me);
      return formatEvent(ctx, room, ev, me)["content"] as JsonObject;
    },
    { guests: true },
  );

  router.add(
    "GET",
    CLIENT_V3,
    "/rooms/:roomId/state",
    (req) => {
      const me = requester(req);
      const room = store.require(req.params["roomId"] ?? "");
      const until = stateReadableUntil(room, me.userId);
      if (until === undefined) throw errors.forbidden(`User ${me.userId} not in room ${room.roomId}`);
      const state = until === Number.POSITIVE_INFINITY ? room.state : room.stateAt(until);
      return { body: [...state.values()].map((ev) => formatEvent(ctx, room, ev, me)) };
    },
    { guests: true },
  );
}

/** A canonical alias must exist and point to the room (400 M_BAD_ALIAS otherwise, as Synapse). */
function checkCanonicalAlias(ctx: ServerContext, roomId: string, content: JsonObject): void {
  const alt = content["alt_aliases"];
  if (alt !== undefined && (!Array.isArray(alt) || alt.some((a) => typeof a !== "string")))
    throw errors.badJson("alt_aliases must be a list of strings");
  const alias = content["alias"];
  if (alias !== undefined && alias !== null && typeof alias !== "string")
    throw errors.badJson("alias must be a string");
  for (const a of [...(typeof alias === "string" ? [alias] : []), ...((alt as string[] | undefined) ?? [])]) {
    if (ctx.rooms.aliases.get(a)?.roomId !== roomId)
      throw new MatrixHttpError(400, "M_BAD_ALIAS", `Room alias ${a} does not point to the room`);
  }
}
