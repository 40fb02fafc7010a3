/**
 * Room version rules: which behaviours each room version (1 to 12, plus the
 * unstable versions that introduced a rule) turns on, as flags the pure
 * models read: the redaction algorithm, where the creator comes from, whether
 * creators have infinite power (MSC4289), integer-only power levels, join
 * rules, and the version markers (MSC2716 history markers, tombstones,
 * MSC3946 dynamic predecessors). One table, so a rule is never decided by
 * comparing version strings in more than one place.
 */

/** Which redaction algorithm a room version uses. */
export type RedactionAlgorithm = "v1" | "v11";

/** The rules of one room version, as flags. */
export interface RoomVersionRules {
  /** The version string these rules were looked up for. */
  readonly version: string;
  /** Whether the version is one the table knows (false means fallback rules). */
  readonly known: boolean;
  /** v1-10 use the pre-v11 algorithm; v11+ the clarified one. */
  readonly redaction: RedactionAlgorithm;
  /** m.room.aliases keeps `aliases` through redaction (v1-5). */
  readonly redactionKeepsAliases: boolean;
  /** m.room.join_rules keeps `allow` through redaction (v8+). */
  readonly redactionKeepsJoinAllow: boolean;
  /** m.room.member keeps `join_authorised_via_users_server` through redaction (v9+). */
  readonly redactionKeepsAuthorisingUser: boolean;
  /** The creator is content.creator (v1-10) rather than the create event's sender (v11+). */
  readonly creatorFromContent: boolean;
  /** MSC4289 (v12): the create sender and content.additional_creators have infinite power. */
  readonly creatorsHaveInfinitePower: boolean;
  /** Power levels must be integers; numeric strings are refused (v10+). */
  readonly integerPowerLevels: boolean;
  /** The `knock` join rule exists (v7+). */
  readonly knocking: boolean;
  /** The `restricted` join rule exists (v8+). */
  readonly restrictedJoin: boolean;
  /** The `knock_restricted` join rule exists (v10+). */
  readonly knockRestricted: boolean;
  /** MSC2716 marker events are authorised by power levels (org.matrix.msc2716v3 only). */
  readonly historyMarkers: boolean;
  /** m.room.tombstone marks the room as replaced (every version: authorised by power levels). */
  readonly tombstones: boolean;
  /** MSC3946 dynamic predecessor state is part of the version (none of the known versions). */
  readonly dynamicPredecessor: boolean;
}

type Flags = Omit<RoomVersionRules, "version" | "known">;

function flagsFor(n: number): Flags {
  return {
    redaction: n >= 11 ? "v11" : "v1",
    redactionKeepsAliases: n <= 5,
    redactionKeepsJoinAllow: n >= 8,
    redactionKeepsAuthorisingUser: n >= 9,
    creatorFromContent: n <= 10,
    creatorsHaveInfinitePower: n >= 12,
    integerPowerLevels: n >= 10,
    knocking: n >= 7,
    restrictedJoin: n >= 8,
    knockRestricted: n >= 10,
    historyMarkers: false,
    tombstones: true,
    dynamicPredecessor: false,
  };
}

/** The newest stable room version the table describes. */
export const LATEST_KNOWN_ROOM_VERSION = 12;

const TABLE: ReadonlyMap<string, Flags> = new Map<string, Flags>([
  ...Array.from({ length: LATEST_KNOWN_ROOM_VERSION }, (_, i): [string, Flags] => [
    String(i + 1),
    flagsFor(i + 1),
  ]),
  // MSC2716's room version: v9 plus power-level-authorised history markers.
  ["org.matrix.msc2716v3", { ...flagsFor(9), historyMarkers: true }],
  // MSC4289's unstable identifier for the v12 creator rules.
  ["org.matrix.hydra.11", flagsFor(12)],
]);

/** The marker event type of MSC2716 (incrementally importing history). */
export const MSC2716_MARKER_EVENT_TYPE = "org.matrix.msc2716.marker";

/**
 * The rules of a room version. A missing version is "1" (the spec's default
 * for a create event without room_version). An unknown numeric version above
 * the table gets the newest rules; any other unknown string gets v11's, the
 * newest rules without creator power, and `known: false`.
 */
export function roomVersionRules(version: unknown): RoomVersionRules {
  const v = typeof version === "string" && version !== "" ? version : "1";
  const flags = TABLE.get(v);
  if (flags !== undefined) return { version: v, known: true, ...flags };
  const numeric = /^[0-9]{1,6}$/.test(v) ? Number(v) : NaN;
  const fallback = numeric > LATEST_KNOWN_ROOM_VERSION ? flagsFor(LATEST_KNOWN_ROOM_VERSION) : flagsFor(11);
  return { version: v, known: false, ...fallback };
}

/**
 * The room version markers: events that change what the client takes the
 * room's history or lineage to be. "history" is an MSC2716 marker (refresh
 * the timeline); "tombstone" an m.room.tombstone (the room was replaced);
 * "predecessor" an MSC3946 dynamic predecessor (the room continues another).
 */
export type VersionMarkerKind = "history" | "tombstone" | "predecessor";

/**
 * Whether a room version marker is honoured: only if the version supports
 * that marker, or the sender is one of the room's creators. SPEC §5.
 */
export function isVersionMarkerHonoured(
  rules: RoomVersionRules,
  sender: string,
  creators: ReadonlySet<string>,
  kind: VersionMarkerKind = "history",
): boolean {
  const supported =
    kind === "history"
      ? rules.historyMarkers
      : kind === "tombstone"
        ? rules.tombstones
        : rules.dynamicPredecessor;
  return supported || creators.has(sender);
}

/** Whether a join rule value is one this room version supports. */
export function supportsJoinRule(rules: RoomVersionRules, joinRule: unknown): boolean {
  switch (joinRule) {
    case "public":
    case "invite":
    case "private":
      return true;
    case "knock":
      return rules.knocking;
    case "restricted":
      return rules.restrictedJoin;
    case "knock_restricted":
      return rules.knockRestricted;
    default:
      return false;
  }
}
