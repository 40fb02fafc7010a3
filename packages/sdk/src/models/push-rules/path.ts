/**
 * Dotted property paths of push conditions (e.g. `content.m\.mentions.room`):
 * `.` separates keys, `\.` is a literal dot and `\\` a literal backslash; any
 * other backslash is itself. Lookups read own properties of objects only, so
 * `__proto__` in a path finds nothing unless the event has such a key.
 */
import { isJsonObject } from "../json";

/** The keys of a dotted path, with the spec's escaping undone. */
export function splitPath(path: string): string[] {
  const keys: string[] = [];
  let current = "";
  for (let i = 0; i < path.length; i++) {
    const ch = path[i];
    const next = path[i + 1];
    if (ch === "\\" && (next === "." || next === "\\")) {
      current += next;
      i++;
    } else if (ch === ".") {
      keys.push(current);
      current = "";
    } else {
      current += ch;
    }
  }
  keys.push(current);
  return keys;
}

/** The value at a dotted path in an event, or undefined. */
export function valueAtPath(event: unknown, path: string): unknown {
  let value: unknown = event;
  for (const key of splitPath(path)) {
    if (!isJsonObject(value) || !Object.prototype.hasOwnProperty.call(value, key)) return undefined;
    value = value[key];
  }
  return value;
}
