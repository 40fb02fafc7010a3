/**
 * PUT /sendToDevice/{eventType}/{txnId}: queues messages per target device
 * ("*" for every device of a user); a transaction id is idempotent per
 * sending device.
 */
import type { ServerContext } from "../../core/context";
import type { JsonObject } from "../../core/events";
import { errors } from "../../http/errors";
import { CLIENT_V3 } from "../../http/router";
import type { Router } from "../../http/router";
import { isJsonObject } from "../../http/types";
import { entries, objectBody, reqObject, requester } from "../body";

export function registerToDeviceRoutes(router: Router, ctx: ServerContext): void {
  router.add(
    "PUT",
    CLIENT_V3,
    "/sendToDevice/:eventType/:txnId",
    (req) => {
      const who = requester(req);
      const body = objectBody(req);
      const messages = reqObject(body, "messages");
      const type = req.params["eventType"] ?? "";
      // Check the whole body before queueing anything, so a bad entry sends nothing.
      const targets: Array<{ userId: string; deviceId: string; event: JsonObject }> = [];
      for (const [userId, byDevice] of entries(messages)) {
        if (!isJsonObject(byDevice)) throw errors.badJson("messages must map user ids to device maps");
        for (const [deviceId, content] of entries(byDevice)) {
          if (!isJsonObject(content)) throw errors.badJson("message content must be an object");
          const event = { type, sender: who.userId, content };
          const devices =
            deviceId === "*" ? ctx.accounts.devicesOf(userId).map((d) => d.deviceId) : [deviceId];
          for (const id of devices) {
            if (ctx.accounts.device(userId, id)) targets.push({ userId, deviceId: id, event });
          }
        }
      }
      if (ctx.accounts.toDevice.seenTxn(who.userId, who.deviceId, req.params["txnId"] ?? "")) return {};
      ctx.accounts.toDevice.enqueue(targets);
      return {};
    },
    // Guests may send to-device messages (guest access module).
    { guests: true },
  );
}
