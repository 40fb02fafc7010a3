/**
 * Small checks shared by the userdata routes: who is asking, whether they
 * may touch this user's data, and the shape of untrusted bodies.
 */
import type { JsonObject } from "../../core/events";
import { MatrixHttpError, errors } from "../../http/errors";
import type { HandlerRequest, Requester } from "../../http/types";
import { isJsonObject } from "../../http/types";

/** The authenticated caller (routes here all require auth). */
export function requester(req: HandlerRequest): Requester {
  if (!req.requester) throw errors.missingToken();
  return req.requester;
}

/** The caller, who must be `userId`; otherwise 403 M_FORBIDDEN with `message`. */
export function requireSelf(req: HandlerRequest, userId: string, message: string): Requester {
  const who = requester(req);
  if (who.userId !== userId) throw errors.forbidden(message);
  return who;
}

export { MAX_JSON_DEPTH, tooDeep } from "../../http/json-depth";
import { tooDeep } from "../../http/json-depth";

/** The body as a JSON object, or 400 M_BAD_JSON (also for absurdly deep nesting). */
export function requireObject(body: unknown): JsonObject {
  if (!isJsonObject(body)) throw errors.badJson("Content must be a JSON object");
  if (tooDeep(body)) throw errors.badJson("JSON nesting too deep");
  return body;
}

/** A room id path parameter, or 400 M_INVALID_PARAM. */
export function requireRoomId(roomId: string): string {
  if (!roomId.startsWith("!") || !roomId.includes(":"))
    throw new MatrixHttpError(400, "M_INVALID_PARAM", `'${roomId.slice(0, 255)}' is not a valid room ID`);
  return roomId;
}

/** Sets an own property; `obj[key] = value` would change the prototype for "__proto__". */
export function setOwn(obj: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Whether an object has an own property (never inherited ones like "constructor"). */
export function hasOwn(obj: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

/** An optional integer query parameter within [min, max], or 400 M_INVALID_PARAM. */
export function intQuery(req: HandlerRequest, name: string, min: number, max: number): number | undefined {
  const raw = req.query.get(name);
  if (raw === null) return undefined;
  if (!/^-?[0-9]{1,15}$/.test(raw)) throw errors.invalidParam(`Query parameter '${name}' must be an integer`);
  const n = Number(raw);
  if (n < min || n > max) throw errors.invalidParam(`Query parameter '${name}' is out of range`);
  return n;
}
