/**
 * Query-string encoding for Matrix requests: arrays become repeated keys,
 * undefined and null are dropped, booleans are "true"/"false" (the spec's
 * wire form), numbers are written in decimal.
 */
import type { QueryParams } from "./types";

/** Encodes `params` as a query string without the leading "?" ("" when empty). */
export function encodeQuery(params: QueryParams | undefined): string {
  if (!params) return "";
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value as readonly string[]) search.append(key, item);
    } else {
      search.append(key, String(value));
    }
  }
  return search.toString();
}
