/**
 * The one registry of stable and unstable Matrix identifiers the SDK uses:
 * query parameters, fields, path prefixes and feature flags that exist under
 * an MSC's unstable name before (or besides) their stable one. Each entry
 * names its MSC, so removing an unstable name once servers have caught up is
 * a one-line change. Other modules add their entries here too.
 */

/** One identifier with its stable name (null while the MSC is unmerged) and its unstable name. */
export interface UnstableName {
  readonly msc: number;
  readonly stable: string | null;
  readonly unstable: string;
}

/** MSC4222: `state_after` in /sync instead of `state`. */
export const SYNC_USE_STATE_AFTER: UnstableName = {
  msc: 4222,
  stable: "use_state_after",
  unstable: "org.matrix.msc4222.use_state_after",
};

/** MSC4222: the response field that answers SYNC_USE_STATE_AFTER. */
export const SYNC_STATE_AFTER: UnstableName = {
  msc: 4222,
  stable: "state_after",
  unstable: "org.matrix.msc4222.state_after",
};

/** MSC4140: delayed events. The feature flag in /versions' unstable_features. */
export const DELAYED_EVENTS_FEATURE: UnstableName = {
  msc: 4140,
  stable: null,
  unstable: "org.matrix.msc4140",
};

/** MSC4140: the query parameter that turns a send or state call into a delayed one. */
export const DELAYED_EVENTS_DELAY: UnstableName = {
  msc: 4140,
  stable: null,
  unstable: "org.matrix.msc4140.delay",
};

/** MSC4140: the query parameter naming the delayed event a new one hangs off. */
export const DELAYED_EVENTS_PARENT_DELAY_ID: UnstableName = {
  msc: 4140,
  stable: null,
  unstable: "org.matrix.msc4140.parent_delay_id",
};

/** MSC4140: the prefix of the delayed events management endpoints. */
export const DELAYED_EVENTS_PREFIX: UnstableName = {
  msc: 4140,
  stable: null,
  unstable: "/_matrix/client/unstable/org.matrix.msc4140",
};

/** MSC3266: room summary. Stable since Matrix 1.15 under /_matrix/client/v1/room_summary. */
export const ROOM_SUMMARY_PREFIX: UnstableName = {
  msc: 3266,
  stable: "/_matrix/client/v1",
  unstable: "/_matrix/client/unstable/im.nheko.summary",
};

/** MSC2946: space hierarchy. Stable since Matrix 1.2. */
export const SPACE_HIERARCHY_PREFIX: UnstableName = {
  msc: 2946,
  stable: "/_matrix/client/v1",
  unstable: "/_matrix/client/unstable/org.matrix.msc2946",
};

/** MSC3030: timestamp to event. Stable since Matrix 1.6. */
export const TIMESTAMP_TO_EVENT_PREFIX: UnstableName = {
  msc: 3030,
  stable: "/_matrix/client/v1",
  unstable: "/_matrix/client/unstable/org.matrix.msc3030",
};

/** MSC4133: extended profiles. Feature flags in /versions' unstable_features; stable in Matrix v1.16. */
export const EXTENDED_PROFILES_FEATURE: UnstableName = {
  msc: 4133,
  stable: "uk.tcpip.msc4133.stable",
  unstable: "uk.tcpip.msc4133",
};

/** MSC4133: the prefix of the extended profile endpoints before the server has the stable ones. */
export const EXTENDED_PROFILES_PREFIX: UnstableName = {
  msc: 4133,
  stable: "/_matrix/client/v3",
  unstable: "/_matrix/client/unstable/uk.tcpip.msc4133",
};

/** MSC3391: deleting account data. Only the unstable DELETE exists; older servers take an empty PUT. */
export const ACCOUNT_DATA_DELETION_PREFIX: UnstableName = {
  msc: 3391,
  stable: null,
  unstable: "/_matrix/client/unstable/org.matrix.msc3391",
};

/** MSC3882: POST /login/get_token. Stable since Matrix 1.7 under /_matrix/client/v1. */
export const LOGIN_TOKEN_PREFIX: UnstableName = {
  msc: 3882,
  stable: "/_matrix/client/v1",
  unstable: "/_matrix/client/unstable/org.matrix.msc3882",
};

/** MSC3882: the capability that says whether get_token may be used. */
export const GET_LOGIN_TOKEN_CAPABILITY: UnstableName = {
  msc: 3882,
  stable: "m.get_login_token",
  unstable: "org.matrix.msc3882.get_login_token",
};

/** MSC2918: refresh tokens. Stable since Matrix 1.3 under v3; early servers served v1 (and r0). */
export const REFRESH_PREFIX: UnstableName = {
  msc: 2918,
  stable: "/_matrix/client/v3",
  unstable: "/_matrix/client/v1",
};

/**
 * MSC3916: authenticated media. Stable since Matrix 1.11; servers on older
 * spec versions advertise the stable endpoints with this unstable_features flag.
 */
export const AUTHENTICATED_MEDIA_FEATURE: UnstableName = {
  msc: 3916,
  stable: null,
  unstable: "org.matrix.msc3916.stable",
};

/** MSC2965: OAuth 2.0 authorization server metadata. Stable since Matrix 1.15. */
export const AUTH_METADATA_PREFIX: UnstableName = {
  msc: 2965,
  stable: "/_matrix/client/v1",
  unstable: "/_matrix/client/unstable/org.matrix.msc2965",
};

/** MSC2666: mutual rooms. The unstable_features flag of the unstable endpoint. */
export const MUTUAL_ROOMS_FEATURE: UnstableName = {
  msc: 2666,
  stable: "uk.half-shot.msc2666.query_mutual_rooms.stable",
  unstable: "uk.half-shot.msc2666.query_mutual_rooms",
};

/**
 * MSC2666: the mutual rooms endpoint, prefix plus path. Unstable:
 * /user/mutual_rooms with batch_token; stable: /mutual_rooms with from.
 */
export const MUTUAL_ROOMS_ENDPOINT: UnstableName = {
  msc: 2666,
  stable: "/_matrix/client/v1/mutual_rooms",
  unstable: "/_matrix/client/unstable/uk.half-shot.msc2666/user/mutual_rooms",
};

/** MSC4186: simplified sliding sync. The unstable_features flag that advertises it. */
export const SLIDING_SYNC_FEATURE: UnstableName = {
  msc: 4186,
  stable: null,
  unstable: "org.matrix.simplified_msc3575",
};

/** MSC4186: the prefix of the sliding sync endpoint (POST {prefix}/sync). */
export const SLIDING_SYNC_PREFIX: UnstableName = {
  msc: 4186,
  stable: null,
  unstable: "/_matrix/client/unstable/org.matrix.simplified_msc3575",
};

/** MSC2448: the blurhash of an image (or a video's thumbnail) in the media event's `info`. */
export const BLURHASH_FIELD: UnstableName = {
  msc: 2448,
  stable: null,
  unstable: "xyz.amorgan.blurhash",
};

/** MSC3946: dynamic room predecessor, a state event naming the room this one continues. */
export const ROOM_PREDECESSOR_EVENT: UnstableName = {
  msc: 3946,
  stable: null,
  unstable: "org.matrix.msc3946.room_predecessor",
};

/** MSC4354: sticky events. The feature flag in /versions' unstable_features. */
export const STICKY_EVENTS_FEATURE: UnstableName = {
  msc: 4354,
  stable: null,
  unstable: "org.matrix.msc4354",
};

/** MSC4354: the query parameter that makes a sent event sticky for that many ms. */
export const STICKY_DURATION_QUERY: UnstableName = {
  msc: 4354,
  stable: null,
  unstable: "org.matrix.msc4354.sticky_duration_ms",
};
