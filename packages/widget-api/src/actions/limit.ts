/**
 * The `limit` field of read requests, checked once for every action that
 * takes one (read_events, read_relations, user_directory_search): absent, or
 * a number in range, else 'Invalid request - limit out of range' (SPEC §5).
 */
import { SHARED_MESSAGES, WidgetActionError } from "../util/errors";
import { own } from "../util/narrow";
import type { UnknownRecord } from "../util/narrow";

/**
 * The request's limit, or undefined when it has none. `zero` says whether 0
 * is in range: read_events needs at least one event (a limit of zero or less
 * is out of range); relations and user search reject only negatives.
 */
export function readLimit(data: UnknownRecord, zero: "allowed" | "out_of_range"): number | undefined {
  const raw = own(data, "limit");
  if (raw === undefined) return undefined;
  const inRange = zero === "allowed" ? (v: number) => v >= 0 : (v: number) => v > 0;
  if (typeof raw !== "number" || !Number.isFinite(raw) || !inRange(raw)) {
    throw new WidgetActionError(SHARED_MESSAGES.limitOutOfRange);
  }
  return raw;
}
