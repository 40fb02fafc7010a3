/**
 * Shape checks for untrusted request bodies of the accounts domain. Every
 * handler reads its body through these, so a wrong type answers M_BAD_JSON /
 * M_INVALID_PARAM / M_MISSING_PARAM instead of crashing.
 */
import type { JsonObject } from "../core/events";
import { errors } from "../http/errors";
import { isJsonObject } from "../http/types";
import type { HandlerRequest, Requester } from "../http/types";

/** The body as a JSON object, or M_BAD_JSON (M_NOT_JSON is the front's job). */
export function objectBody(req: HandlerRequest): JsonObject {
  if (!isJsonObject(req.body)) throw errors.badJson("Body must be a JSON object");
  return req.body;
}

/** An optional string field; M_INVALID_PARAM when present with another type. */
export function optString(obj: JsonObject, key: string, maxLength = 65_536): string | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw errors.invalidParam(`${key} must be a string`);
  if (value.length > maxLength) throw errors.invalidParam(`${key} is too long`);
  return value;
}

/** A required string field. */
export function reqString(obj: JsonObject, key: string, maxLength = 65_536): string {
  const value = optString(obj, key, maxLength);
  if (value === undefined) throw errors.missingParam(key);
  return value;
}

/** An optional boolean field. */
export function optBool(obj: JsonObject, key: string): boolean | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "boolean") throw errors.invalidParam(`${key} must be a boolean`);
  return value;
}

/** An optional object field. */
export function optObject(obj: JsonObject, key: string): JsonObject | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (!isJsonObject(value)) throw errors.invalidParam(`${key} must be an object`);
  return value;
}

/** A required object field. */
export function reqObject(obj: JsonObject, key: string): JsonObject {
  const value = optObject(obj, key);
  if (value === undefined) throw errors.missingParam(key);
  return value;
}

/** A required array of strings. */
export function reqStringArray(obj: JsonObject, key: string): string[] {
  const value = obj[key];
  if (value === undefined || value === null) throw errors.missingParam(key);
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) {
    throw errors.invalidParam(`${key} must be an array of strings`);
  }
  return value as string[];
}

/** The authenticated caller; routes registered with auth "required" always have one. */
export function requester(req: HandlerRequest): Requester {
  if (!req.requester) throw errors.missingToken();
  return req.requester;
}

/** A null-prototype record, so ids like __proto__ stay plain keys. */
export function record<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** Own enumerable entries of an untrusted object. */
export function entries(obj: JsonObject): Array<[string, unknown]> {
  return Object.keys(obj).map((k) => [k, obj[k]]);
}
