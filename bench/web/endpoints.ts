/**
 * The small endpoints the web app calls at start, answered with minimal
 * valid bodies for bench/web (bench/sync/server.ts serves them when started
 * with its `web` option). The sync itself, /versions, /capabilities, push
 * rules and filters are the sync server's own routes.
 */
import type { ExtraRoutes } from "../sync/server";

const NOT_FOUND = { status: 404, body: { errcode: "M_NOT_FOUND", error: "Not found" } };
const EMPTY = { status: 200, body: {} };

/** The routes for a session of `userId` on device `deviceId`. */
export function webRoutes(userId: string, deviceId: string): ExtraRoutes {
  return (method, route) => {
    if (route === "/account/whoami") return { status: 200, body: { user_id: userId, device_id: deviceId } };
    if (/^\/user\/[^/]+\/(?:rooms\/[^/]+\/)?account_data\//.test(route))
      return method === "GET" ? NOT_FOUND : EMPTY;
    if (/^\/profile\//.test(route)) return method === "GET" ? { status: 200, body: {} } : EMPTY;
    if (route === "/pushers") return { status: 200, body: { pushers: [] } };
    if (route === "/devices") return { status: 200, body: { devices: [{ device_id: deviceId }] } };
    if (route === "/keys/upload") return { status: 200, body: { one_time_key_counts: {} } };
    if (route === "/keys/query") return { status: 200, body: { device_keys: {}, failures: {} } };
    if (route === "/keys/claim") return { status: 200, body: { one_time_keys: {}, failures: {} } };
    if (/^\/room_keys\/version/.test(route)) return NOT_FOUND;
    if (route === "/voip/turnServer") return EMPTY;
    if (route === "/thirdparty/protocols") return EMPTY;
    // The fixture's avatars have no bytes: a thumbnail is not found (the avatar falls back to initials).
    if (/^\/media\/(?:thumbnail|download)\//.test(route)) return NOT_FOUND;
    if (route === "/media/config") return { status: 200, body: { "m.upload.size": 50_000_000 } };
    if (/^\/presence\//.test(route))
      return method === "GET" ? { status: 200, body: { presence: "online" } } : EMPTY;
    if (/^\/rooms\/[^/]+\/(?:receipt|read_markers|typing)/.test(route)) return EMPTY;
    if (/^\/sendToDevice\//.test(route)) return EMPTY;
    return undefined;
  };
}
