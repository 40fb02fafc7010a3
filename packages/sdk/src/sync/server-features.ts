/**
 * The one place that says which optional features a homeserver has. Every
 * feature the product uses beyond Matrix v1.2 (what Synapse 1.67, our "old
 * server", speaks) is read here from the versions document (spec versions
 * and `unstable_features`) or the capabilities, and nowhere else: callers
 * ask `ServerFeatures`, never the raw documents. Both documents come from
 * the network, so any shape is tolerated: a garbage document means "no
 * optional feature", never an exception. docs/architecture/0011 holds the
 * table of features, how each is detected and what Lattice does without it.
 */
import { AUTHENTICATED_MEDIA_FEATURE, DELAYED_EVENTS_FEATURE, SLIDING_SYNC_FEATURE } from "../api/unstable";
import { EXTENDED_PROFILES_FEATURE, MUTUAL_ROOMS_FEATURE } from "../api/unstable";

/** How far a server supports threads: "stable" from v1.4, "experimental" with MSC3440's flags. */
export type ThreadSupport = "none" | "experimental" | "stable";

/** Which name of an optional field or endpoint the server speaks, or null when none. */
export type Flavour = "stable" | "unstable" | null;

/** What the server offers, as far as the product cares. */
export interface ServerFeatures {
  /** The spec versions the server lists that we could parse ("v1.2", "r0.6.1"), in its order. */
  readonly versions: readonly string[];
  /** The unstable feature flags set to true. */
  readonly unstableFeatures: ReadonlySet<string>;
  /** Sync filter field `unread_thread_notifications` (v1.4, MSC3773). */
  readonly unreadThreadNotifications: boolean;
  /** /_matrix/client/v1/media with the Authorization header (v1.11, MSC3916). */
  readonly authenticatedMedia: boolean;
  /** Thread relations (v1.4 stable, MSC3440 flags experimental). */
  readonly threads: ThreadSupport;
  /** GET /_matrix/client/v1/rooms/{roomId}/threads (v1.4 only; the only path we speak). */
  readonly threadList: boolean;
  /** Delayed events (MSC4140's unstable flag). */
  readonly delayedEvents: boolean;
  /** Simplified sliding sync (MSC4186's flag). */
  readonly slidingSync: boolean;
  /** /sync `state_after` (v1.16 stable, MSC4222 unstable). */
  readonly stateAfter: Flavour;
  /** Extended profiles (v1.16 or MSC4133's stable flag: stable prefix; its unstable flag: unstable prefix). */
  readonly extendedProfiles: Flavour;
  /** Whether the user may change profile fields (capability m.profile_fields; on unless it says off). */
  readonly profileFieldsEditable: boolean;
  /** Mutual rooms (MSC2666's stable or unstable flag). */
  readonly mutualRooms: Flavour;
  /** The server puts the viewer's membership in each event's `unsigned.membership` (MSC4115, v1.11). */
  readonly membershipOnEvents: boolean;
  /** GET /rooms/{roomId}/hierarchy (v1.2 stable, MSC2946's flag on the unstable prefix). */
  readonly spaceHierarchy: boolean;
}

/** Parses "v1.11" into [1, 11] and "r0.6.1" into [0, 6]; null for anything else. */
export function parseSpecVersion(version: unknown): [number, number] | null {
  if (typeof version !== "string") return null;
  const v = /^v(\d{1,6})\.(\d{1,6})$/.exec(version);
  if (v) return [Number(v[1]), Number(v[2])];
  const r = /^r0\.(\d{1,6})\.\d{1,6}$/.exec(version);
  return r ? [0, Number(r[1])] : null;
}

function atLeast(versions: readonly string[], major: number, minor: number): boolean {
  return versions.some((v) => {
    const parsed = parseSpecVersion(v);
    return parsed !== null && (parsed[0] > major || (parsed[0] === major && parsed[1] >= minor));
  });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The flags set to true; own properties only, so "__proto__" and friends are plain names. */
function trueFlags(doc: unknown): Set<string> {
  const raw = isPlainObject(doc) ? doc["unstable_features"] : undefined;
  const out = new Set<string>();
  if (!isPlainObject(raw)) return out;
  for (const name of Object.keys(raw)) {
    if (Object.getOwnPropertyDescriptor(raw, name)?.value === true) out.add(name);
  }
  return out;
}

function versionList(doc: unknown): string[] {
  const raw = isPlainObject(doc) ? doc["versions"] : undefined;
  return Array.isArray(raw) ? raw.filter((v): v is string => parseSpecVersion(v) !== null) : [];
}

/** Whether the capabilities switch a boolean capability off (absent means on, as the spec says). */
function capabilityOff(capabilities: unknown, name: string): boolean {
  if (!isPlainObject(capabilities) || !Object.hasOwn(capabilities, name)) return false;
  const capability = capabilities[name];
  return isPlainObject(capability) && capability["enabled"] === false;
}

/** MSC2946's flag (the space hierarchy before v1.2). */
const SPACE_HIERARCHY_FEATURE = "org.matrix.msc2946";
/** MSC3773's flag. */
const UNREAD_THREAD_NOTIFICATIONS_FEATURE = "org.matrix.msc3773";
/** MSC4222's flag. */
const STATE_AFTER_FEATURE = "org.matrix.msc4222";
/** MSC3440's flags (thread relations, not the /threads list). */
const THREAD_FEATURES = ["org.matrix.msc3440.stable", "org.matrix.msc3440"] as const;

/**
 * The features of a server from its versions document and capabilities
 * (either may be null, unknown or malformed). `capabilities` is the inner
 * object of GET /capabilities (or the whole answer; both are read).
 */
export function serverFeaturesOf(versions: unknown, capabilities: unknown = null): ServerFeatures {
  const list = versionList(versions);
  const flags = trueFlags(versions);
  const caps =
    isPlainObject(capabilities) && isPlainObject(capabilities["capabilities"])
      ? capabilities["capabilities"]
      : capabilities;
  const v14 = atLeast(list, 1, 4);
  const v116 = atLeast(list, 1, 16);
  const mutualStable = MUTUAL_ROOMS_FEATURE.stable;
  return {
    versions: list,
    unstableFeatures: flags,
    unreadThreadNotifications: v14 || flags.has(UNREAD_THREAD_NOTIFICATIONS_FEATURE),
    authenticatedMedia: atLeast(list, 1, 11) || flags.has(AUTHENTICATED_MEDIA_FEATURE.unstable),
    threads: v14 ? "stable" : THREAD_FEATURES.some((f) => flags.has(f)) ? "experimental" : "none",
    threadList: v14,
    delayedEvents: flags.has(DELAYED_EVENTS_FEATURE.unstable),
    slidingSync:
      flags.has(SLIDING_SYNC_FEATURE.unstable) ||
      (SLIDING_SYNC_FEATURE.stable !== null && flags.has(SLIDING_SYNC_FEATURE.stable)),
    stateAfter: v116 ? "stable" : flags.has(STATE_AFTER_FEATURE) ? "unstable" : null,
    extendedProfiles:
      v116 || flags.has(EXTENDED_PROFILES_FEATURE.stable ?? "")
        ? "stable"
        : flags.has(EXTENDED_PROFILES_FEATURE.unstable)
          ? "unstable"
          : null,
    profileFieldsEditable: !capabilityOff(caps, "m.profile_fields"),
    mutualRooms:
      mutualStable !== null && flags.has(mutualStable)
        ? "stable"
        : flags.has(MUTUAL_ROOMS_FEATURE.unstable)
          ? "unstable"
          : null,
    membershipOnEvents: atLeast(list, 1, 11),
    spaceHierarchy: atLeast(list, 1, 2) || flags.has(SPACE_HIERARCHY_FEATURE),
  };
}

/** The features of a server that told us nothing: no optional feature at all. */
export const NO_SERVER_FEATURES: ServerFeatures = serverFeaturesOf(null, null);
