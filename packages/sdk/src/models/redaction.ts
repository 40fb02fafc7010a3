/**
 * The redaction algorithm, client side: strip an event to the keys its room
 * version keeps (top level, and per event type inside content), then record
 * the redaction in unsigned.redacted_because. Versions 1 to 10 and 11+ differ
 * (v11 drops origin, membership and prev_state, keeps all of m.room.create's
 * content, power levels' invite, the redaction's content.redacts, and the
 * signed part of a member's third_party_invite). Pure and idempotent.
 */
import type { ClientEventWithoutRoomId, EventContent, UnsignedData } from "../api/types/events";
import { isJsonObject, own, ownString } from "./json";
import type { RoomVersionRules } from "./room-versions";

const TOP_LEVEL_V1 = [
  "event_id",
  "type",
  "room_id",
  "sender",
  "state_key",
  "content",
  "hashes",
  "signatures",
  "depth",
  "prev_events",
  "prev_state",
  "auth_events",
  "origin",
  "origin_server_ts",
  "membership",
] as const;
const DROPPED_IN_V11: ReadonlySet<string> = new Set(["origin", "membership", "prev_state"]);
const POWER_LEVEL_KEYS = [
  "ban",
  "events",
  "events_default",
  "kick",
  "redact",
  "state_default",
  "users",
  "users_default",
];
/** Unsigned fields about delivery (not the event's content) that survive a local redaction. */
const UNSIGNED_KEPT = ["age", "transaction_id", "membership"] as const;

/** The top-level keys a room version keeps through redaction. */
export function keptTopLevelKeys(rules: RoomVersionRules): readonly string[] {
  return rules.redaction === "v11" ? TOP_LEVEL_V1.filter((k) => !DROPPED_IN_V11.has(k)) : TOP_LEVEL_V1;
}

/**
 * The content keys an event type keeps through redaction in a room version,
 * or "all" (v11's m.room.create). Types not listed keep nothing.
 */
export function keptContentKeys(type: string, rules: RoomVersionRules): readonly string[] | "all" {
  const v11 = rules.redaction === "v11";
  switch (type) {
    case "m.room.member":
      return [
        "membership",
        ...(rules.redactionKeepsAuthorisingUser ? ["join_authorised_via_users_server"] : []),
        ...(v11 ? ["third_party_invite"] : []),
      ];
    case "m.room.create":
      return v11 ? "all" : ["creator"];
    case "m.room.join_rules":
      return rules.redactionKeepsJoinAllow ? ["join_rule", "allow"] : ["join_rule"];
    case "m.room.power_levels":
      return v11 ? [...POWER_LEVEL_KEYS, "invite"] : POWER_LEVEL_KEYS;
    case "m.room.aliases":
      return rules.redactionKeepsAliases ? ["aliases"] : [];
    case "m.room.history_visibility":
      return ["history_visibility"];
    case "m.room.redaction":
      return v11 ? ["redacts"] : [];
    default:
      return [];
  }
}

/** The content an event keeps after redaction. */
export function redactContent(type: string, content: unknown, rules: RoomVersionRules): EventContent {
  if (!isJsonObject(content)) return {};
  const kept = keptContentKeys(type, rules);
  if (kept === "all") return Object.fromEntries(Object.entries(content));
  const out: [string, unknown][] = [];
  for (const key of kept) {
    if (!Object.prototype.hasOwnProperty.call(content, key)) continue;
    let value = content[key];
    if (key === "third_party_invite") {
      // v11 keeps the invite's signature block only.
      const signed = own(value, "signed");
      if (signed === undefined) continue;
      value = { signed };
    }
    out.push([key, value]);
  }
  return Object.fromEntries(out);
}

/** Whether an event carries a redaction (unsigned.redacted_because). */
export function isRedacted(event: { unsigned?: UnsignedData }): boolean {
  return isJsonObject(own(event.unsigned, "redacted_because"));
}

/** The event id a redaction event redacts: content.redacts (v11+), else the top-level key. */
export function redactedEventId(redaction: unknown): string | undefined {
  return ownString(own(redaction, "content"), "redacts") ?? ownString(redaction, "redacts");
}

/**
 * A NEW event, `event` stripped to its room version's whitelist, with
 * unsigned.redacted_because set to `redaction`. Applying it again with the
 * same redaction gives the same event.
 */
export function redactEvent<E extends ClientEventWithoutRoomId>(
  event: E,
  redaction: ClientEventWithoutRoomId,
  rules: RoomVersionRules,
): E {
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const key of keptTopLevelKeys(rules)) {
    if (Object.prototype.hasOwnProperty.call(event, key)) out[key] = (event as Record<string, unknown>)[key];
  }
  out["content"] = redactContent(event.type, event.content, rules);
  const unsigned: [string, unknown][] = [];
  for (const key of UNSIGNED_KEPT) {
    const v = own(event.unsigned, key);
    if (v !== undefined) unsigned.push([key, v]);
  }
  // Keep the nesting bounded: the redaction's own unsigned is not carried along.
  const { unsigned: _dropped, ...because } = redaction;
  unsigned.push(["redacted_because", because]);
  out["unsigned"] = Object.fromEntries(unsigned);
  return { ...out } as unknown as E;
}
