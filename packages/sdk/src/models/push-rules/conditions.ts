/**
 * The push rule condition kinds: event_match, event_property_is,
 * event_property_contains, contains_display_name, room_member_count and
 * sender_notification_permission. A condition of an unknown kind, or one
 * whose fields are malformed, matches nothing, as the spec requires.
 */
import { own, ownString } from "../json";
import type { PowerLevels } from "../power-levels";
import { containsWords, globMatches, globMatchesWords } from "./glob";
import { valueAtPath } from "./path";

/** What conditions are evaluated against besides the event. */
export interface PushContext {
  /** The user the rules belong to. */
  readonly userId: string;
  /** The user's display name in the room (contains_display_name). */
  readonly displayName?: string;
  /** The number of joined members of the room (room_member_count). */
  readonly memberCount: number;
  /** The room's power levels (sender_notification_permission). */
  readonly powerLevels?: PowerLevels;
  /** The room the event is in, when the event itself lacks room_id (room rules). */
  readonly roomId?: string;
}

/** An exact scalar of event_property_is / _contains: string, integer, boolean or null. */
function isExactScalar(value: unknown): value is string | number | boolean | null {
  return (
    value === null ||
    typeof value === "string" ||
    typeof value === "boolean" ||
    (typeof value === "number" && Number.isInteger(value))
  );
}

function eventMatch(event: unknown, condition: unknown): boolean {
  const key = ownString(condition, "key");
  const pattern = ownString(condition, "pattern");
  if (key === undefined || pattern === undefined) return false;
  const value = valueAtPath(event, key);
  if (typeof value !== "string") return false;
  return key === "content.body" ? globMatchesWords(pattern, value) : globMatches(pattern, value);
}

function propertyIs(event: unknown, condition: unknown): boolean {
  const key = ownString(condition, "key");
  const expected = own(condition, "value");
  if (key === undefined || !isExactScalar(expected)) return false;
  const value = valueAtPath(event, key);
  return isExactScalar(value) && value === expected;
}

function propertyContains(event: unknown, condition: unknown): boolean {
  const key = ownString(condition, "key");
  const expected = own(condition, "value");
  if (key === undefined || !isExactScalar(expected)) return false;
  const value = valueAtPath(event, key);
  return Array.isArray(value) && value.some((v) => isExactScalar(v) && v === expected);
}

function containsDisplayName(event: unknown, ctx: PushContext): boolean {
  const name = ctx.displayName?.trim();
  const body = valueAtPath(event, "content.body");
  return name !== undefined && name !== "" && typeof body === "string" && containsWords(name, body);
}

const MEMBER_COUNT = /^(==|<=|>=|<|>)?([0-9]{1,15})$/;

/** Whether a room_member_count `is` expression (e.g. "2", "==2", ">=10") holds for `count`. */
export function memberCountMatches(is: unknown, count: number): boolean {
  if (typeof is !== "string") return false;
  const m = MEMBER_COUNT.exec(is);
  if (m === null) return false;
  const n = Number(m[2]);
  switch (m[1] ?? "==") {
    case "<":
      return count < n;
    case ">":
      return count > n;
    case "<=":
      return count <= n;
    case ">=":
      return count >= n;
    default:
      return count === n;
  }
}

function senderPermission(event: unknown, condition: unknown, ctx: PushContext): boolean {
  const key = ownString(condition, "key");
  const sender = ownString(event, "sender");
  if (key === undefined || sender === undefined || ctx.powerLevels === undefined) return false;
  return ctx.powerLevels.userLevel(sender) >= ctx.powerLevels.notificationLevel(key);
}

/** Whether one condition (untrusted JSON) holds for an event. */
export function conditionMatches(event: unknown, condition: unknown, ctx: PushContext): boolean {
  switch (own(condition, "kind")) {
    case "event_match":
      return eventMatch(event, condition);
    case "event_property_is":
      return propertyIs(event, condition);
    case "event_property_contains":
      return propertyContains(event, condition);
    case "contains_display_name":
      return containsDisplayName(event, ctx);
    case "room_member_count":
      return memberCountMatches(own(condition, "is"), ctx.memberCount);
    case "sender_notification_permission":
      return senderPermission(event, condition, ctx);
    default:
      return false;
  }
}
