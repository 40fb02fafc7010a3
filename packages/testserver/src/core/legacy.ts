/**
 * The "legacy" profile: the test homeserver behaving like Synapse 1.67 (the
 * project's old server, spec v1.2), so the fast suite meets what a real old
 * server does between Synapse runs. Synapse remains the judge; this profile
 * only keeps the quick tests honest. What changes (docs/architecture/0002):
 * - /versions lists r0.0.1 to v1.2 and 1.67's unstable_features, none of
 *   the features the product detects beyond v1.2;
 * - a filter with a field 1.67's schema does not know (such as
 *   unread_thread_notifications) is refused with 400 M_UNKNOWN and the
 *   jsonschema message, at upload and inline in /sync;
 * - endpoints 1.67 lacks answer as it answers any unknown endpoint: 400
 *   M_UNRECOGNIZED "Unrecognized request" (authenticated media under
 *   /_matrix/client/v1/media, /threads, sliding sync, delayed events,
 *   extended profiles, the mutual rooms form we speak, room summary,
 *   auth metadata); so does every other unknown path and method;
 * - /sync ignores use_state_after, events carry no unsigned.membership
 *   (MSC4115), and the delayed-event query parameters are ignored (the
 *   event is sent at once, as a server that does not know them does).
 */
import type { JsonObject } from "./events";

/** Which homeserver the test server imitates. */
export type ServerProfile = "current" | "legacy";

/** What Synapse 1.67 lists in /versions. */
export const LEGACY_VERSIONS = [
  "r0.0.1",
  "r0.1.0",
  "r0.2.0",
  "r0.3.0",
  "r0.4.0",
  "r0.5.0",
  "r0.6.0",
  "r0.6.1",
  "v1.1",
  "v1.2",
];

/** Synapse 1.67's unstable_features with its default configuration. */
export const LEGACY_UNSTABLE_FEATURES: Readonly<Record<string, boolean>> = {
  "org.matrix.label_based_filtering": true,
  "org.matrix.e2e_cross_signing": true,
  "org.matrix.msc2432": true,
  "uk.half-shot.msc2666.mutual_rooms": true,
  "io.element.e2ee_forced.public": false,
  "io.element.e2ee_forced.private": false,
  "io.element.e2ee_forced.trusted_private": false,
  "org.matrix.msc3026.busy_presence": false,
  "org.matrix.msc2285.stable": true,
  "org.matrix.msc3827.stable": true,
  "org.matrix.msc2716": false,
  "org.matrix.msc3030": false,
  "org.matrix.msc3440.stable": true,
  "fi.mau.msc2815": false,
};

/** Paths 1.67 does not serve although this server does. */
const MISSING: readonly RegExp[] = [
  /^\/_matrix\/client\/v1\/media\//,
  /^\/_matrix\/client\/(v1|v3|unstable\/[^/]+)\/rooms\/[^/]+\/threads$/,
  /^\/_matrix\/client\/unstable\/org\.matrix\.simplified_msc3575\//,
  /^\/_matrix\/client\/unstable\/org\.matrix\.msc4140\//,
  /^\/_matrix\/client\/unstable\/uk\.tcpip\.msc4133\//,
  /^\/_matrix\/client\/v1\/mutual_rooms$/,
  /^\/_matrix\/client\/unstable\/uk\.half-shot\.msc2666\/user\/mutual_rooms$/,
  /^\/_matrix\/client\/v1\/room_summary\//,
  /^\/_matrix\/client\/unstable\/im\.nheko\.summary\//,
  /^\/_matrix\/client\/(v1|unstable\/org\.matrix\.msc2965)\/auth_(metadata|issuer)$/,
];

/** Whether Synapse 1.67 has no such endpoint. */
export function missingInLegacy(path: string): boolean {
  return MISSING.some((re) => re.test(path));
}

// Synapse 1.67's filter schema (synapse/api/filtering.py): every level has additionalProperties false.
const EVENT_FILTER = ["limit", "senders", "not_senders", "types", "not_types"];
const ROOM_EVENT_FILTER = [
  ...EVENT_FILTER,
  "rooms",
  "not_rooms",
  "contains_url",
  "lazy_load_members",
  "include_redundant_members",
  "org.matrix.labels",
  "org.matrix.not_labels",
  "related_by_senders",
  "related_by_rel_types",
];
const ROOM_FILTER = ["not_rooms", "rooms", "ephemeral", "include_leave", "state", "timeline", "account_data"];
const TOP = ["presence", "account_data", "room", "event_format", "event_fields"];

function unexpected(value: unknown, allowed: readonly string[]): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  return Object.keys(value).find((key) => !allowed.includes(key));
}

/**
 * The message 1.67 answers for a filter with a field its schema lacks (the
 * first line of jsonschema's error), or undefined when every field is known.
 */
export function legacyFilterError(filter: JsonObject): string | undefined {
  const checks: Array<[unknown, readonly string[]]> = [
    [filter, TOP],
    [filter["presence"], EVENT_FILTER],
    [filter["account_data"], EVENT_FILTER],
  ];
  const room = filter["room"];
  checks.push([room, ROOM_FILTER]);
  if (typeof room === "object" && room !== null && !Array.isArray(room)) {
    for (const part of ["state", "timeline", "ephemeral", "account_data"])
      checks.push([(room as JsonObject)[part], ROOM_EVENT_FILTER]);
  }
  for (const [value, allowed] of checks) {
    const key = unexpected(value, allowed);
    if (key !== undefined) return `Additional properties are not allowed ('${key}' was unexpected)`;
  }
  return undefined;
}
