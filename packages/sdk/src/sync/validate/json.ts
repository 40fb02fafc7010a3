/**
 * Narrowing helpers for untrusted JSON: type guards and one bounded walk that
 * checks a value is plain JSON within the size, depth and string limits.
 * Keys are read with Object.keys/Object.entries only, so ids such as
 * `__proto__` stay data.
 */
import { internContent } from "./intern";
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
 * or why not. With `freeze`, every object and array is frozen as it passes,
 * so the validated value is deeply immutable and can be shared (the stores
 * keep frozen values by reference instead of copying them), and short
 * repeated strings inside it are swapped for shared instances (intern.ts).
 *
 * Hot path (every event of every sync): no per-call or per-object
 * allocation. It recurses, but only as deep as `limits.maxDepth` (it refuses
 * anything deeper before descending), so hostile nesting cannot overflow the
 * stack.
 */
export function checkJson(value: unknown, limits: ValidationLimits, freeze = false): string | null {
  nodeCount = 0;
  return checkValue(value, limits, 0, freeze);
}

/** Values seen by the running checkJson (it is synchronous and not re-entrant). */
let nodeCount = 0;

function checkValue(v: unknown, limits: ValidationLimits, depth: number, freeze: boolean): string | null {
  nodeCount += 1;
  if (nodeCount > limits.maxNodes) return `more than ${limits.maxNodes} JSON values`;
  switch (typeof v) {
    case "string":
      return v.length > limits.maxStringLength ? `a string longer than ${limits.maxStringLength}` : null;
    case "boolean":
      return null;
    case "number":
      return Number.isFinite(v) ? null : "a non-finite number";
    case "object":
      if (v === null) return null;
      break;
    default:
      return `a value of type ${typeof v}`;
  }
  // Already frozen: validated before (a stored value, a repeated receipt) or frozen on purpose.
  if (freeze && Object.isFrozen(v)) return null;
  if (depth >= limits.maxDepth) return `nesting deeper than ${limits.maxDepth}`;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const item: unknown = v[i];
      const bad = checkValue(item, limits, depth + 1, freeze);
      if (bad !== null) return bad;
      // Sharing repeated strings is part of keeping what we freeze (and keep) small.
      if (freeze && typeof item === "string") v[i] = internContent(item);
    }
  } else {
    const object = v as Record<string, unknown>;
    // for-in walks V8's enum cache without building a key array; own keys only (`__proto__` is data).
    for (const key in object) {
      if (!Object.hasOwn(object, key)) continue;
      if (key.length > limits.maxStringLength) return `a key longer than ${limits.maxStringLength}`;
      const item = object[key];
      const bad = checkValue(item, limits, depth + 1, freeze);
      if (bad !== null) return bad;
      // An own data property (JSON.parse makes only those), so this write never reaches a setter.
      if (freeze && typeof item === "string") object[key] = internContent(item);
    }
  }
  if (freeze) Object.freeze(v);
  return null;
}

/**
 * Deep-freezes a JSON value we wrote ourselves (a stored snapshot read back),
 * without the checks of checkJson. A frozen object or array is taken as
 * already deeply frozen and not walked again.
 */
export function freezeJson<T>(value: T): T {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  if (Array.isArray(value)) {
    for (const item of value as unknown[]) freezeJson(item);
  } else {
    const object = value as Record<string, unknown>;
    for (const key in object) if (Object.hasOwn(object, key)) freezeJson(object[key]);
  }
  return Object.freeze(value);
}
