/**
 * Small readers for untrusted JSON in the models: a field is taken only when
 * it has the expected type, so garbage from the server is ignored rather than
 * trusted or thrown on. Keys are read as own properties, never through the
 * prototype, so ids such as `__proto__` stay data.
 */
import { isJsonObject } from "../sync/validate/json";

export { isJsonObject };

/** An own property of an object, or undefined (never an inherited one). */
export function own(obj: unknown, key: string): unknown {
  if (!isJsonObject(obj) || !Object.prototype.hasOwnProperty.call(obj, key)) return undefined;
  return obj[key];
}

/** An own string property, or undefined. */
export function ownString(obj: unknown, key: string): string | undefined {
  const v = own(obj, key);
  return typeof v === "string" ? v : undefined;
}

/** An own object property, or undefined. */
export function ownObject(obj: unknown, key: string): Record<string, unknown> | undefined {
  const v = own(obj, key);
  return isJsonObject(v) ? v : undefined;
}

/** A plain-data copy of an object's own entries, safe for keys such as `__proto__`. */
export function copyObject(obj: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(obj));
}

/** Whether a string looks like a Matrix user id (@localpart:server). */
export function isUserId(value: unknown): value is string {
  return typeof value === "string" && value.length <= 255 && /^@[^:]+:.+$/.test(value);
}

/** Whether a string looks like a room id ("!opaque:server", or "!hash" from room version 12). */
export function isRoomId(value: unknown): value is string {
  return typeof value === "string" && value.length > 1 && value.length <= 255 && /^![^\s]+$/.test(value);
}
