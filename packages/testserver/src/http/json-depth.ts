/**
 * A bound on JSON nesting. Deeper bodies would overflow the stack when they
 * are copied, serialised or validated, so the front refuses them with
 * M_BAD_JSON before any handler sees them.
 */

/** The deepest nesting accepted. */
export const MAX_JSON_DEPTH = 256;

/** Whether a parsed JSON value nests deeper than `max` (checked without recursion). */
export function tooDeep(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (typeof node !== "object" || node === null) continue;
    if (depth >= max) return true;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}
