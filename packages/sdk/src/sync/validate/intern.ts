/**
 * String sharing for validated events. JSON.parse makes a new string for
 * every value, so the same sender, event type, state key or membership
 * held by thousands of events costs thousands of copies. Validation swaps
 * each short repeated value for one shared instance. The table is bounded
 * (cleared when full), so hostile input cannot grow it without limit; a
 * cleared table only means later strings are shared with fewer others.
 */

/** Longer strings are rarely repeated (message bodies): not worth a lookup. */
const MAX_INTERNED_LENGTH = 64;
/** Distinct strings kept before the table starts over. */
const MAX_ENTRIES = 50_000;

const table = new Map<string, string>();

/** The shared instance of `value` (itself the first time it is seen). */
export function intern(value: string): string {
  if (value.length > MAX_INTERNED_LENGTH) return value;
  const known = table.get(value);
  if (known !== undefined) return known;
  if (table.size >= MAX_ENTRIES) table.clear();
  table.set(value, value);
  return value;
}

/**
 * Like intern, for a value inside event content: event ids (relation
 * targets) are left alone, as they are nearly all distinct and would only
 * churn the table.
 */
export function internContent(value: string): string {
  return value.charCodeAt(0) === 36 /* "$" */ ? value : intern(value);
}
