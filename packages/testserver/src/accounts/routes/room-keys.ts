/**
 * Server-side key backup: /room_keys/version (create, get, update, delete)
 * and /room_keys/keys (put, get, delete for all rooms, a room or a session,
 * with the version query), answering counts and etags.
 */
import type { ServerContext } from "../../core/context";
import type { JsonObject } from "../../core/events";
import { errors, MatrixHttpError } from "../../http/errors";
import { CLIENT_V3 } from "../../http/router";
import type { Router } from "../../http/router";
import type { HandlerRequest } from "../../http/types";
import { isJsonObject } from "../../http/types";
import { entries, objectBody, optString, record, reqObject, reqString, requester } from "../body";
import type { BackupVersion } from "../room-keys-store";

function checkSessionData(data: unknown): JsonObject {
  if (
    !isJsonObject(data) ||
    typeof data["first_message_index"] !== "number" ||
    typeof data["forwarded_count"] !== "number" ||
    typeof data["is_verified"] !== "boolean" ||
    !isJsonObject(data["session_data"])
  ) {
    throw errors.badJson(
      "Key backup data needs first_message_index, forwarded_count, is_verified and session_data",
    );
  }
  return data;
}

export function registerRoomKeysRoutes(router: Router, ctx: ServerContext): void {
  const store = ctx.accounts.roomKeys;

  const describe = (b: BackupVersion): JsonObject => ({
    algorithm: b.algorithm,
    auth_data: b.auth_data,
    count: store.count(b),
    etag: String(b.etag),
    version: b.version,
  });
  const summary = (b: BackupVersion): JsonObject => ({ count: store.count(b), etag: String(b.etag) });

  router.add("POST", CLIENT_V3, "/room_keys/version", (req) => {
    const who = requester(req);
    const body = objectBody(req);
    const algorithm = reqString(body, "algorithm", 255);
    const authData = reqObject(body, "auth_data");
    return { version: store.create(who.userId, algorithm, authData) };
  });

  const getVersion = (req: HandlerRequest): JsonObject => {
    const who = requester(req);
    const b = store.get(who.userId, req.params["version"]);
    if (!b)
      throw errors.notFound(
        req.params["version"] === undefined ? "No current backup version" : "Unknown backup version",
      );
    return describe(b);
  };
  router.add("GET", CLIENT_V3, "/room_keys/version", getVersion);
  router.add("GET", CLIENT_V3, "/room_keys/version/:version", getVersion);

  router.add("PUT", CLIENT_V3, "/room_keys/version/:version", (req) => {
    const who = requester(req);
    const body = objectBody(req);
    const b = store.get(who.userId, req.params["version"]);
    if (!b) throw errors.notFound("Unknown backup version");
    const algorithm = reqString(body, "algorithm", 255);
    const authData = reqObject(body, "auth_data");
    const version = optString(body, "version", 64);
    if (version !== undefined && version !== b.version)
      throw errors.invalidParam("Version in body does not match");
    if (algorithm !== b.algorithm) throw errors.invalidParam("Algorithm does not match");
    b.auth_data = authData;
    return {};
  });

  router.add("DELETE", CLIENT_V3, "/room_keys/version/:version", (req) => {
    const b = store.get(requester(req).userId, req.params["version"]);
    if (!b) throw errors.notFound("Unknown backup version");
    b.deleted = true;
    return {};
  });

  /** The version a keys request names; writes must name the current one. */
  const versionFor = (req: HandlerRequest, write: boolean): BackupVersion => {
    const who = requester(req);
    const version = req.query.get("version");
    if (version === null) throw errors.missingParam("version");
    const current = store.get(who.userId);
    if (write && current?.version !== version) {
      throw new MatrixHttpError(403, "M_WRONG_ROOM_KEYS_VERSION", "Wrong backup version.", {
        current_version: current?.version ?? null,
      });
    }
    const b = store.get(who.userId, version);
    if (!b) throw errors.notFound("Unknown backup version");
    return b;
  };

  const putSessions = (b: BackupVersion, roomId: string, sessions: unknown): void => {
    if (!isJsonObject(sessions)) throw errors.badJson("sessions must be an object");
    const checked = entries(sessions).map(([id, data]) => [id, checkSessionData(data)] as const);
    for (const [id, data] of checked) store.put(b, roomId, id, data);
  };

  router.add("PUT", CLIENT_V3, "/room_keys/keys", (req) => {
    const b = versionFor(req, true);
    const rooms = reqObject(objectBody(req), "rooms");
    for (const [roomId, room] of entries(rooms)) {
      if (!isJsonObject(room)) throw errors.badJson("rooms must map room ids to objects");
      putSessions(b, roomId, room["sessions"]);
    }
    return summary(b);
  });
  router.add("PUT", CLIENT_V3, "/room_keys/keys/:roomId", (req) => {
    const b = versionFor(req, true);
    putSessions(b, req.params["roomId"] ?? "", reqObject(objectBody(req), "sessions"));
    return summary(b);
  });
  router.add("PUT", CLIENT_V3, "/room_keys/keys/:roomId/:sessionId", (req) => {
    const b = versionFor(req, true);
    store.put(
      b,
      req.params["roomId"] ?? "",
      req.params["sessionId"] ?? "",
      checkSessionData(objectBody(req)),
    );
    return summary(b);
  });

  const sessionsJson = (sessions: Map<string, JsonObject> | undefined): JsonObject => {
    const out = record<JsonObject>();
    for (const [id, data] of sessions ?? []) out[id] = data;
    return out;
  };

  router.add("GET", CLIENT_V3, "/room_keys/keys", (req) => {
    const b = versionFor(req, false);
    const rooms = record<JsonObject>();
    for (const [roomId, sessions] of b.rooms) rooms[roomId] = { sessions: sessionsJson(sessions) };
    return { rooms };
  });
  router.add("GET", CLIENT_V3, "/room_keys/keys/:roomId", (req) => {
    const b = versionFor(req, false);
    return { sessions: sessionsJson(b.rooms.get(req.params["roomId"] ?? "")) };
  });
  router.add("GET", CLIENT_V3, "/room_keys/keys/:roomId/:sessionId", (req) => {
    const b = versionFor(req, false);
    const data = b.rooms.get(req.params["roomId"] ?? "")?.get(req.params["sessionId"] ?? "");
    if (!data) throw errors.notFound("No room_keys found");
    return data;
  });

  router.add("DELETE", CLIENT_V3, "/room_keys/keys", (req) => {
    const b = versionFor(req, false);
    store.delete(b);
    return summary(b);
  });
  router.add("DELETE", CLIENT_V3, "/room_keys/keys/:roomId", (req) => {
    const b = versionFor(req, false);
    store.delete(b, req.params["roomId"] ?? "");
    return summary(b);
  });
  router.add("DELETE", CLIENT_V3, "/room_keys/keys/:roomId/:sessionId", (req) => {
    const b = versionFor(req, false);
    store.delete(b, req.params["roomId"] ?? "", req.params["sessionId"] ?? "");
    return summary(b);
  });
}
