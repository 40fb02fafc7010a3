/**
 * Bounded size estimate of a structured-cloned message, used to drop
 * oversized payloads before any handler looks at them. It walks iteratively
 * (no recursion, so deeply nested input cannot overflow the stack), counts
 * each object once (structured clone allows cycles) and stops as soon as the
 * budget is exceeded, so a huge message costs at most `limit` work.
 */

/** Largest message either side accepts: 10 MB. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** True when the estimated size of `value` exceeds `limit` bytes. */
export function exceedsSize(value: unknown, limit: number = MAX_MESSAGE_BYTES): boolean {
  let total = 0;
  const seen = new Set<object>();
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    total += sizeOfLeaf(v);
    if (total > limit) return true;
    if (typeof v !== "object" || v === null || seen.has(v)) continue;
    seen.add(v);
    if (isBinary(v)) continue;
    if (v instanceof Map) {
      for (const [k, item] of v) stack.push(k, item);
      continue;
    }
    if (v instanceof Set) {
      for (const item of v) stack.push(item);
      continue;
    }
    for (const key of Object.keys(v)) {
      total += key.length + 4;
      stack.push((v as Record<string, unknown>)[key]);
    }
    if (total > limit) return true;
  }
  return false;
}

function isBinary(v: object): boolean {
  return (
    v instanceof ArrayBuffer || ArrayBuffer.isView(v) || (typeof Blob !== "undefined" && v instanceof Blob)
  );
}

function sizeOfLeaf(v: unknown): number {
  switch (typeof v) {
    case "string":
      return v.length + 2;
    case "number":
    case "boolean":
    case "bigint":
      return 8;
    case "object":
      if (v === null) return 4;
      if (v instanceof ArrayBuffer) return v.byteLength;
      if (ArrayBuffer.isView(v)) return v.byteLength;
      if (typeof Blob !== "undefined" && v instanceof Blob) return v.size;
      return 2;
    default:
      return 0;
  }
}
