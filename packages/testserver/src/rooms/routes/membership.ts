/**
 * Membership endpoints: join (by id or alias), invite (user or 3PID), leave,
 * kick, ban, unban, knock, forget and joined_rooms.
 */
import type { ServerContext } from "../../core/context";
import { errors } from "../../http/errors";
import type { Router } from "../../http/router";
import { CLIENT_V3 } from "../../http/router";
import type { HandlerRequest } from "../../http/types";
import { isJsonObject } from "../../http/types";
import { checkUserId, forget, invite, join, setMembership } from "../membership";
import { bodyObject, optString, requester } from "./util";

export function registerMembershipRoutes(router: Router, ctx: ServerContext): void {
  const store = ctx.rooms;

  const joinHandler = (roomIdOrAlias: string, req: HandlerRequest): { room_id: string } => {
    const me = requester(req);
    const body = bodyObject(req);
    const signed = body["third_party_signed"];
    if (signed !== undefined && !isJsonObject(signed))
      throw errors.badJson("third_party_signed must be an object");
    const roomId = store.resolve(roomIdOrAlias);
    join(ctx, store, me.userId, roomId, body["reason"], me.isGuest);
    return { room_id: roomId };
  };
  router.add(
    "POST",
    CLIENT_V3,
    "/join/:roomIdOrAlias",
    (req) => joinHandler(req.params["roomIdOrAlias"] ?? "", req),
    {
      guests: true,
    },
  );
  router.add(
    "POST",
    CLIENT_V3,
    "/rooms/:roomId/join",
    (req) => joinHandler(req.params["roomId"] ?? "", req),
    {
      guests: true,
    },
  );

  router.add("POST", CLIENT_V3, "/knock/:roomIdOrAlias", (req) => {
    const me = requester(req);
    const body = bodyObject(req);
    const roomId = store.resolve(req.params["roomIdOrAlias"] ?? "");
    setMembership(ctx, store, me.userId, roomId, me.userId, "knock", body["reason"]);
    return { room_id: roomId };
  });

  router.add("POST", CLIENT_V3, "/rooms/:roomId/invite", (req) => {
    const me = requester(req);
    const body = bodyObject(req);
    const roomId = req.params["roomId"] ?? "";
    if (body["user_id"] === undefined && body["medium"] !== undefined) {
      thirdPartyInvite(ctx, me.userId, roomId, req);
      return {};
    }
    const target = checkUserId(body["user_id"]);
    invite(ctx, store, me.userId, roomId, target, body["reason"]);
    return {};
  });

  router.add(
    "POST",
    CLIENT_V3,
    "/rooms/:roomId/leave",
    (req) => {
      const me = requester(req);
      const body = bodyObject(req);
      const roomId = req.params["roomId"] ?? "";
      store.require(roomId);
      const current = store.membershipOf(roomId, me.userId);
      if (current === "leave" || current === undefined) {
        // Leaving a room one has already left is accepted, as in Synapse.
        if (current === "leave") return {};
        throw errors.forbidden(`User ${me.userId} is not in the room`);
      }
      setMembership(ctx, store, me.userId, roomId, me.userId, "leave", body["reason"]);
      return {};
    },
    { guests: true },
  );

  for (const action of ["kick", "ban", "unban"] as const) {
    router.add("POST", CLIENT_V3, `/rooms/:roomId/${action}`, (req) => {
      const me = requester(req);
      const body = bodyObject(req);
      const roomId = req.params["roomId"] ?? "";
      const target = checkUserId(body["user_id"]);
      store.require(roomId);
      const current = store.membershipOf(roomId, target);
      if (action === "unban" && current !== "ban") throw errors.forbidden(`${target} is not banned`);
      if (action === "kick" && current !== "join" && current !== "invite" && current !== "knock")
        throw errors.forbidden(`${target} is not in the room`);
      setMembership(
        ctx,
        store,
        me.userId,
        roomId,
        target,
        action === "ban" ? "ban" : "leave",
        body["reason"],
      );
      return {};
    });
  }

  router.add(
    "POST",
    CLIENT_V3,
    "/rooms/:roomId/forget",
    (req) => {
      const me = requester(req);
      forget(store, me.userId, req.params["roomId"] ?? "");
      return {};
    },
    { guests: true },
  );

  router.add(
    "GET",
    CLIENT_V3,
    "/joined_rooms",
    (req) => {
      const me = requester(req);
      return {
        joined_rooms: store
          .roomsForUser(me.userId)
          .filter((r) => r.membership === "join")
          .map((r) => r.roomId),
      };
    },
    { guests: true },
  );
}

/**
 * A 3PID invite: there is no identity server to ask, so a known test
 * server answers M_FORBIDDEN for id_server "forbidden.example" and stores a
 * m.room.third_party_invite otherwise.
 */
function thirdPartyInvite(ctx: ServerContext, sender: string, roomId: string, req: HandlerRequest): void {
  const body = bodyObject(req);
  const idServer = optString(body, "id_server");
  const medium = optString(body, "medium");
  const address = optString(body, "address");
  if (idServer === undefined) throw errors.missingParam("id_server");
  if (medium === undefined) throw errors.missingParam("medium");
  if (address === undefined) throw errors.missingParam("address");
  optString(body, "id_access_token");
  if (idServer === "forbidden.example") throw errors.forbidden("Identity server refused the invite");
  const room = ctx.rooms.require(roomId);
  const token = ctx.ids.randomString(24);
  const masked = address.includes("@")
    ? `${address.slice(0, 3)}...@${address.split("@")[1] ?? ""}`
    : `${address.slice(0, 3)}...`;
  ctx.rooms.append(room, {
    type: "m.room.third_party_invite",
    sender,
    state_key: token,
    content: {
      display_name: masked,
      key_validity_url: `https://${idServer}/_matrix/identity/v2/pubkey/isvalid`,
      public_key: "serverpublickey",
      public_keys: [
        {
          public_key: "serverpublickey",
          key_validity_url: `https://${idServer}/_matrix/identity/v2/pubkey/isvalid`,
        },
      ],
    },
  });
}
