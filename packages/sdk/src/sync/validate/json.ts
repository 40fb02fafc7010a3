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
 * or why not. Iterative, so hostile nesting cannot overflow the stack.
 */
export function checkJson(value: unknown, limits: ValidationLimits): string | null {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  let nodes = 0;
  while (stack.length > 0) {
    const item = stack.pop() as { value: unknown; depth: number };
    nodes += 1;
    if (nodes > limits.maxNodes) return `more than ${limits.maxNodes} JSON values`;
    const v = item.value;
    switch (typeof v) {
      case "string":
        if (v.length > limits.maxStringLength) return `a string longer than ${limits.maxStringLength}`;
        continue;
      case "boolean":
        continue;
      case "number":
        if (!Number.isFinite(v)) return "a non-finite number";
        continue;
      case "object":
        break;
      default:
        return `a value of type ${typeof v}`;
    }
    if (v === null) continue;
    if (item.depth >= limits.maxDepth) return `nesting deeper than ${limits.maxDepth}`;
    if (Array.isArray(v)) {
      for (const element of v as unknown[]) stack.push({ value: element, depth: item.depth + 1 });
      continue;
    }
    for (const [key, element] of Object.entries(v)) {
      if (key.length > limits.maxStringLength) return `a key longer than ${limits.maxStringLength}`;
      stack.push({ value: element, depth: item.depth + 1 });
    }
  }
  return null;
}
