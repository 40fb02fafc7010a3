/**
 * Device management: list, get, rename, delete and delete_devices (the
 * deletions behind UIA with m.login.password).
 */
import type { ServerContext } from "../../core/context";
import type { JsonObject } from "../../core/events";
import { errors } from "../../http/errors";
import { CLIENT_V3 } from "../../http/router";
import type { Router } from "../../http/router";
import type { DeviceRecord } from "../store";
import { objectBody, optString, reqStringArray, requester } from "../body";

/** The spec's guest access module lets guests list, read and rename their devices. */
const GUESTS = { guests: true };

function toWire(d: DeviceRecord): JsonObject {
  const out: JsonObject = { device_id: d.deviceId, last_seen_ip: d.lastSeenIp, last_seen_ts: d.lastSeenTs };
  if (d.displayName !== undefined) out["display_name"] = d.displayName;
  return out;
}

export function registerDeviceRoutes(router: Router, ctx: ServerContext): void {
  router.add(
    "GET",
    CLIENT_V3,
    "/devices",
    (req) => {
      const who = requester(req);
      return { devices: ctx.accounts.devicesOf(who.userId).map(toWire) };
    },
    GUESTS,
  );

  router.add(
    "GET",
    CLIENT_V3,
    "/devices/:deviceId",
    (req) => {
      const who = requester(req);
      const device = ctx.accounts.device(who.userId, req.params["deviceId"] ?? "");
      if (!device) throw errors.notFound("Device not found");
      return toWire(device);
    },
    GUESTS,
  );

  router.add(
    "PUT",
    CLIENT_V3,
    "/devices/:deviceId",
    (req) => {
      const who = requester(req);
      const body = objectBody(req);
      const device = ctx.accounts.device(who.userId, req.params["deviceId"] ?? "");
      if (!device) throw errors.notFound("Device not found");
      const name = optString(body, "display_name", 1024);
      if (name !== undefined && name !== device.displayName) {
        device.displayName = name;
        ctx.accounts.keys.markChanged(who.userId);
      }
      return {};
    },
    GUESTS,
  );

  router.add("DELETE", CLIENT_V3, "/devices/:deviceId", (req) => {
    const who = requester(req);
    const deviceId = req.params["deviceId"] ?? "";
    if (!ctx.accounts.device(who.userId, deviceId)) throw errors.notFound("Device not found");
    ctx.accounts.uia.check(req, objectBody(req), { flows: [["m.login.password"]], userId: who.userId });
    ctx.accounts.deleteDevice(who.userId, deviceId);
    return {};
  });

  router.add("POST", CLIENT_V3, "/delete_devices", (req) => {
    const who = requester(req);
    const body = objectBody(req);
    const ids = reqStringArray(body, "devices");
    ctx.accounts.uia.check(req, body, { flows: [["m.login.password"]], userId: who.userId });
    for (const id of ids) ctx.accounts.deleteDevice(who.userId, id);
    return {};
  });
}
