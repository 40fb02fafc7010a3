/**
 * Small request helpers shared by the rooms routes: the requester, a JSON
 * object body, and bounded integer query parameters.
 */
import type { JsonObject } from "../../core/events";
import { errors } from "../../http/errors";
import type { HandlerRequest, Requester } from "../../http/types";
import { isJsonObject } from "../../http/types";

/** The authenticated caller (routes registered with auth required). */
export function requester(req: HandlerRequest): Requester {
  if (!req.requester) throw errors.missingToken();
  return req.requester;
}

/** The body as a JSON object, or M_BAD_JSON / M_NOT_JSON. */
export function bodyObject(req: HandlerRequest): JsonObject {
  if (!isJsonObject(req.body)) throw errors.badJson("Body must be a JSON object");
  return req.body;
}

/** An integer query parameter within [min, max], or the default. */
export function intQuery(
  req: HandlerRequest,
  name: string,
  fallback: number,
  min = 0,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const raw = req.query.get(name);
  if (raw === null || raw === "") return fallback;
  if (!/^-?\d+$/.test(raw)) throw errors.invalidParam(`Query parameter ${name} must be an integer`);
  const n = Number.parseInt(raw, 10);
  return Math.min(max, Math.max(min, n));
}

/** A boolean query parameter ("true"/"false"). */
export function boolQuery(req: HandlerRequest, name: string): boolean {
  const raw = req.query.get(name);
  if (raw === null) return false;
  if (raw === "true" || raw === "1") return true;
  if (raw === "false" || raw === "0") return false;
  throw errors.invalidParam(`Query parameter ${name} must be a boolean`);
}

/** An optional string field of a body. */
export function optString(body: JsonObject, key: string): string | undefined {
  const v = body[key];
  if (v === undefined) return undefined;
  if (typeof v !== "string") throw errors.badJson(`${key} must be a string`);
  return v;
}
