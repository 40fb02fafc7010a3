/**
 * POST /createRoom.
 */
import type { ServerContext } from "../../core/context";
import type { Router } from "../../http/router";
import { CLIENT_V3 } from "../../http/router";
import { createRoom } from "../create";
import { requester } from "./util";

export function registerCreateRoomRoutes(router: Router, ctx: ServerContext): void {
  router.add("POST", CLIENT_V3, "/createRoom", (req) => {
    const me = requester(req);
    const room = createRoom(ctx, ctx.rooms, me.userId, req.body);
    return { room_id: room.roomId };
  });
}
