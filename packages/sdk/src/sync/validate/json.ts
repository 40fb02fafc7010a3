/**
 * Narrowing helpers for untrusted JSON: type guards and one bounded walk that
 * checks a value is plain JSON within the size, depth and string limits.
 * Keys are read with Object.keys/Object.entries only, so ids such as
 * `__proto__` stay data.
 */
import type { ValidationLimits } from "./limits";

/** A plain JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A non-empty string no longer than `max`. */
export function isBoundedString(value: unknown, max: number): value is string {
  return typeof value === "string" && value.length > 0 && value.length <= max;
}

/** A finite number (JSON has no NaN or Infinity). */
export function isFiniteNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

/** A non-negative integer count. */
export function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}

/**
 * Checks that `value` is plain JSON within `limits`. Returns null when it is,
 * or why not. Iterative, so hostile nesting cannot overflow the stack; scalars
 * are checked in place, so only objects and arrays are queued.
 */
export function checkJson(value: unknown, limits: ValidationLimits): string | null {
  const values: unknown[] = [value];
  const depths: number[] = [0];
  let nodes = 0;
  while (values.length > 0) {
    const v = values.pop();
    const depth = depths.pop() as number;
    nodes += 1;
    const scalar = checkScalar(v, limits);
    if (scalar !== undefined) {
      if (scalar !== null) return scalar;
      continue;
    }
    if (depth >= limits.maxDepth) return `nesting deeper than ${limits.maxDepth}`;
    const children: unknown[] = Array.isArray(v) ? v : Object.values(v as object);
    if (!Array.isArray(v)) {
      for (const key of Object.keys(v as object)) {
        if (key.length > limits.maxStringLength) return `a key longer than ${limits.maxStringLength}`;
      }
    }
    nodes += children.length;
    if (nodes > limits.maxNodes) return `more than ${limits.maxNodes} JSON values`;
    for (const child of children) {
      const childScalar = checkScalar(child, limits);
      if (childScalar === undefined) {
        values.push(child);
        depths.push(depth + 1);
        nodes -= 1; // counted again when popped
      } else if (childScalar !== null) {
        return childScalar;
      }
    }
  }
  return null;
}

/** null for a good scalar, a reason for a bad value, undefined for an object or array. */
function checkScalar(v: unknown, limits: ValidationLimits): string | null | undefined {
  switch (typeof v) {
    case "string":
      return v.length > limits.maxStringLength ? `a string longer than ${limits.maxStringLength}` : null;
    case "boolean":
      return null;
    case "number":
      return Number.isFinite(v) ? null : "a non-finite number";
    case "object":
      return v === null ? null : undefined;
    default:
      return `a value of type ${typeof v}`;
  }
}
