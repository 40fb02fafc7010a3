/**
 * Every HTTP call of SPEC §7, read line by line, plus the calls issue 2
 * item 4 adds (login/get_token, auth_metadata, capabilities, room summary,
 * mutual rooms, well-known, identity v2, Synapse admin, media download and
 * thumbnail). Sliding sync (POST /sync) is not required. Each entry is a
 * method and a full path template with prefix; `alt` lists other paths that
 * also count (unstable or legacy prefixes the SDK may use instead), `query`
 * and `body` name parameters a case must send for the entry to count (to tell
 * variants of one endpoint apart). The coverage test fails when an entry has
 * no contract case. Not listed: what SPEC §7 names without a homeserver
 * request (storing client options locally, the widget message channel), and
 * the sign-in provider calls (openid-configuration, dynamic registration,
 * token, user info, revoke), which go to the OpenID provider rather than a
 * Matrix API, have no operation in the Matrix definitions, and belong to
 * src/auth (the Matrix side of it, GET /auth_metadata, is listed).
 */

export interface SpecCall {
  /** "METHOD /full/path/{param}". */
  call: string;
  /** Other full paths (same method) that count for this entry. */
  alt?: readonly string[];
  /** Query parameters a case must carry (any one of these names counts for each). */
  query?: readonly string[];
  /** Top-level body fields a case must carry. */
  body?: readonly string[];
  /** Where it comes from in SPEC §7 (or issue 2). */
  from: string;
  /** Set when the Matrix definitions have no operation for the path: why. */
  noSpec?: string;
}

const C3 = "/_matrix/client/v3";
const C1 = "/_matrix/client/v1";
const ID = "/_matrix/identity/v2";
const UNSTABLE = "/_matrix/client/unstable";
const SYNAPSE = "Synapse admin API, not part of the Matrix spec";

export const SPEC_CALLS: readonly SpecCall[] = [
  // Sync and peeking
  { call: `GET ${C3}/sync`, from: "GET /sync: filter, timeout, since, set_presence" },
  { call: `GET ${C3}/sync`, query: ["filter"], from: "GET /sync with a left-rooms filter" },
  { call: `GET ${C3}/events`, query: ["room_id"], from: "GET /events: room_id, timeout, from (peeking)" },
  { call: "GET /_matrix/client/versions", from: "GET /_matrix/client/versions (keep-alive, discovery)" },
  { call: `GET ${C3}/rooms/{roomId}/initialSync`, from: "room initial sync for peeking; /initialSync" },
  { call: `GET ${C3}/pushrules/`, from: "get push rules; GET /pushrules/" },
  { call: `GET ${C3}/profile/{userId}`, from: "get profile info for invitees; GET /profile/{userId}" },
  { call: `GET ${C3}/devices`, from: "get devices; GET /devices" },
  { call: `GET ${C3}/voip/turnServer`, from: "check TURN servers; GET /voip/turnServer" },

  // Account data, tags, profile, presence
  { call: `PUT ${C3}/user/{userId}/account_data/{type}`, from: "PUT /user/{userId}/account_data/{type}" },
  { call: `GET ${C3}/user/{userId}/account_data/{type}`, from: "GET /user/{userId}/account_data/{type}" },
  {
    call: `DELETE ${C3}/user/{userId}/account_data/{type}`,
    alt: [`${UNSTABLE}/org.matrix.msc3391/user/{userId}/account_data/{type}`],
    from: "DELETE /user/{userId}/account_data/{type}",
    noSpec: "MSC3391 account data deletion",
  },
  {
    call: `PUT ${C3}/user/{userId}/rooms/{roomId}/tags/{tag}`,
    from: "PUT /user/{userId}/rooms/{roomId}/tags/{tag}",
  },
  {
    call: `GET ${C3}/user/{userId}/rooms/{roomId}/tags`,
    from: "GET tags (the spec reads all tags at /tags)",
  },
  {
    call: `DELETE ${C3}/user/{userId}/rooms/{roomId}/tags/{tag}`,
    from: "DELETE /user/{userId}/rooms/{roomId}/tags/{tag}",
  },
  {
    call: `PUT ${C3}/user/{userId}/rooms/{roomId}/account_data/{type}`,
    from: "PUT /user/{userId}/rooms/{roomId}/account_data/{type}",
  },
  { call: `PUT ${C3}/profile/{userId}/displayname`, from: "PUT /profile/{userId}/displayname" },
  { call: `PUT ${C3}/profile/{userId}/avatar_url`, from: "PUT /profile/{userId}/avatar_url" },
  { call: `GET ${C3}/profile/{userId}/{keyName}`, from: "GET /profile/{userId}/{key}" },
  {
    call: `PUT ${C3}/profile/{userId}/{keyName}`,
    alt: [`${UNSTABLE}/uk.tcpip.msc4133/profile/{userId}/{keyName}`],
    from: "PUT /profile/{userId}/{key} (extended profile)",
  },
  {
    call: `DELETE ${C3}/profile/{userId}/{keyName}`,
    alt: [`${UNSTABLE}/uk.tcpip.msc4133/profile/{userId}/{keyName}`],
    from: "DELETE /profile/{userId}/{key} (extended profile)",
  },
  {
    call: `PUT ${C3}/profile/{userId}`,
    alt: [`${UNSTABLE}/uk.tcpip.msc4133/profile/{userId}`],
    from: "PUT /profile/{userId}",
    noSpec: "MSC4133 whole-profile PUT",
  },
  {
    call: `PATCH ${C3}/profile/{userId}`,
    alt: [`${UNSTABLE}/uk.tcpip.msc4133/profile/{userId}`],
    from: "PATCH /profile/{userId}",
    noSpec: "MSC4133 whole-profile PATCH",
  },
  { call: `PUT ${C3}/presence/{userId}/status`, from: "PUT /presence/{userId}/status" },
  { call: `GET ${C3}/presence/{userId}/status`, from: "GET /presence/{userId}/status" },

  // Rooms and events
  {
    call: `POST ${C3}/join/{roomIdOrAlias}`,
    from: "POST /join/{roomIdOrAlias}: server_name, via, third_party_signed",
  },
  { call: `POST ${C3}/knock/{roomIdOrAlias}`, from: "POST /knock/{roomIdOrAlias}: reason" },
  {
    call: `PUT ${C3}/rooms/{roomId}/send/{eventType}/{txnId}`,
    from: "PUT /rooms/{roomId}/send/{eventType}/{txnId}",
  },
  {
    call: `PUT ${C3}/rooms/{roomId}/state/{eventType}/{stateKey}`,
    alt: [`${C3}/rooms/{roomId}/state/{eventType}`],
    from: "PUT /rooms/{roomId}/state/{eventType}[/{stateKey}]; group-call state",
  },
  {
    call: `PUT ${C3}/rooms/{roomId}/redact/{eventId}/{txnId}`,
    from: "PUT /rooms/{roomId}/redact/{eventId}/{txnId}",
  },
  {
    call: `PUT ${C3}/rooms/{roomId}/send/{eventType}/{txnId}`,
    query: ["org.matrix.msc4140.delay", "delay"],
    from: "PUT delayed event (send with a delay, MSC4140)",
    noSpec: "MSC4140",
  },
  {
    call: `GET ${UNSTABLE}/org.matrix.msc4140/delayed_events`,
    from: "GET /delayed_events (MSC4140)",
    noSpec: "MSC4140",
  },
  {
    call: `POST ${UNSTABLE}/org.matrix.msc4140/delayed_events/{delayId}`,
    from: "POST /delayed_events/{delayId}: action (MSC4140)",
    noSpec: "MSC4140",
  },
  {
    call: `POST ${C3}/rooms/{roomId}/receipt/{receiptType}/{eventId}`,
    from: "POST /rooms/{roomId}/receipt/{receiptType}/{eventId}",
  },
  {
    call: `PUT ${C3}/rooms/{roomId}/typing/{userId}`,
    from: "PUT /rooms/{roomId}/typing/{userId}: typing, timeout",
  },
  { call: `POST ${C3}/rooms/{roomId}/invite`, body: ["user_id"], from: "POST /rooms/{roomId}/invite (user)" },
  {
    call: `POST ${C3}/rooms/{roomId}/invite`,
    body: ["medium"],
    from: "POST /rooms/{roomId}/invite: id_server, medium, address, id_access_token",
  },
  { call: `POST ${C3}/rooms/{roomId}/leave`, from: "POST /rooms/{roomId}/{membership} (leave)" },
  { call: `POST ${C3}/rooms/{roomId}/ban`, from: "POST /rooms/{roomId}/{membership} (ban): user_id, reason" },
  { call: `POST ${C3}/rooms/{roomId}/unban`, from: "unban" },
  { call: `POST ${C3}/rooms/{roomId}/kick`, from: "kick: user_id, reason" },
  { call: `POST ${C3}/rooms/{roomId}/forget`, from: "forget" },
  { call: `GET ${C3}/rooms/{roomId}/context/{eventId}`, from: "GET /rooms/{roomId}/context/{eventId}" },
  { call: `GET ${C3}/rooms/{roomId}/messages`, from: "GET /rooms/{roomId}/messages" },
  { call: `GET ${C1}/rooms/{roomId}/threads`, from: "GET /rooms/{roomId}/threads" },
  { call: `GET ${C3}/notifications`, from: "GET /notifications" },
  { call: `GET ${C1}/rooms/{roomId}/relations/{eventId}`, from: "GET relations/{eventId}" },
  {
    call: `GET ${C1}/rooms/{roomId}/relations/{eventId}/{relType}`,
    from: "GET relations/{eventId}/{relType}",
  },
  {
    call: `GET ${C1}/rooms/{roomId}/relations/{eventId}/{relType}/{eventType}`,
    from: "GET relations/{eventId}/{relType}/{eventType}",
  },
  { call: `GET ${C3}/rooms/{roomId}/event/{eventId}`, from: "GET /rooms/{roomId}/event/{eventId}" },
  { call: `GET ${C3}/rooms/{roomId}/state`, from: "GET /rooms/{roomId}/state" },
  {
    call: `GET ${C3}/rooms/{roomId}/state/{eventType}/{stateKey}`,
    alt: [`${C3}/rooms/{roomId}/state/{eventType}`],
    from: "GET /rooms/{roomId}/state/{eventType}/{stateKey}",
  },
  { call: `GET ${C3}/rooms/{roomId}/members`, from: "GET /rooms/{roomId}/members" },
  { call: `GET ${C3}/rooms/{roomId}/joined_members`, from: "GET /rooms/{roomId}/joined_members" },
  {
    call: `GET ${C1}/rooms/{roomId}/hierarchy`,
    alt: [`${UNSTABLE}/org.matrix.msc2946/rooms/{roomId}/hierarchy`],
    from: "GET /rooms/{roomId}/hierarchy",
  },
  { call: `GET ${C3}/rooms/{roomId}/aliases`, from: "GET /rooms/{roomId}/aliases" },
  { call: `POST ${C3}/rooms/{roomId}/upgrade`, from: "POST /rooms/{roomId}/upgrade: new_version" },
  {
    call: `POST ${C3}/rooms/{roomId}/report/{eventId}`,
    from: "POST /rooms/{roomId}/report/{eventId}: score, reason",
  },
  { call: `POST ${C3}/rooms/{roomId}/report`, from: "POST /rooms/{roomId}/report: reason" },
  { call: `POST ${C3}/rooms/{roomId}/read_markers`, from: "POST /rooms/{roomId}/read_markers" },
  {
    call: `GET ${C1}/rooms/{roomId}/timestamp_to_event`,
    alt: [`${UNSTABLE}/org.matrix.msc3030/rooms/{roomId}/timestamp_to_event`],
    from: "GET /rooms/{roomId}/timestamp_to_event: ts, dir",
  },
  { call: `POST ${C3}/createRoom`, from: "POST /createRoom" },
  { call: `GET ${C3}/joined_rooms`, from: "GET /joined_rooms" },
  { call: `GET ${C3}/publicRooms`, from: "GET /publicRooms" },
  { call: `POST ${C3}/publicRooms`, from: "POST /publicRooms" },
  { call: `PUT ${C3}/directory/room/{roomAlias}`, from: "PUT /directory/room/{alias}: room_id" },
  { call: `DELETE ${C3}/directory/room/{roomAlias}`, from: "DELETE /directory/room/{alias}" },
  { call: `GET ${C3}/directory/room/{roomAlias}`, from: "GET /directory/room/{alias}" },
  { call: `GET ${C3}/directory/list/room/{roomId}`, from: "GET /directory/list/room/{roomId}" },
  { call: `PUT ${C3}/directory/list/room/{roomId}`, from: "PUT /directory/list/room/{roomId}: visibility" },
  { call: `POST ${C3}/user_directory/search`, from: "POST /user_directory/search: search_term, limit" },
  { call: `POST ${C3}/search`, from: "POST /search: next_batch; search_categories.room_events" },
  { call: `POST ${C3}/user/{userId}/filter`, from: "POST /user/{userId}/filter; create a filter" },
  {
    call: `GET ${C3}/user/{userId}/filter/{filterId}`,
    from: "GET /user/{userId}/filter/{filterId}; get a filter",
  },
  {
    call: `PUT ${C3}/sendToDevice/{eventType}/{txnId}`,
    from: "PUT /sendToDevice/{eventType}/{txnId}: messages",
  },
  {
    call: `GET ${C1}/media/preview_url`,
    alt: ["/_matrix/media/v3/preview_url"],
    from: "GET /preview_url: url, ts",
  },
  { call: `GET ${C1}/media/config`, alt: ["/_matrix/media/v3/config"], from: "GET /config or /media/config" },
  { call: "POST /_matrix/media/v3/upload", from: "POST /upload" },
  {
    call: `GET ${C1}/media/download/{serverName}/{mediaId}`,
    alt: ["/_matrix/media/v3/download/{serverName}/{mediaId}"],
    from: "issue 2: media download",
  },
  {
    call: `GET ${C1}/media/thumbnail/{serverName}/{mediaId}`,
    alt: ["/_matrix/media/v3/thumbnail/{serverName}/{mediaId}"],
    from: "issue 2: media thumbnail",
  },
  { call: `DELETE ${C3}/room_keys/keys`, from: "DELETE /room_keys/keys: version" },
  { call: `DELETE ${C3}/room_keys/keys/{roomId}`, from: "DELETE /room_keys/keys/{roomId}" },
  {
    call: `DELETE ${C3}/room_keys/keys/{roomId}/{sessionId}`,
    from: "DELETE /room_keys/keys/{roomId}/{sessionId}",
  },
  {
    call: `GET ${C1}/room_summary/{roomIdOrAlias}`,
    alt: [
      `${UNSTABLE}/im.nheko.summary/rooms/{roomIdOrAlias}/summary`,
      `${UNSTABLE}/im.nheko.summary/summary/{roomIdOrAlias}`,
    ],
    from: "room summary",
  },
  {
    call: `GET ${C1}/mutual_rooms`,
    alt: [`${UNSTABLE}/uk.half-shot.msc2666/user/mutual_rooms`],
    from: "mutual rooms",
  },
  { call: "GET /.well-known/matrix/client", from: "well-known lookup; homeserver discovery" },

  // Account and authentication
  { call: `GET ${C3}/account/3pid`, from: "GET /account/3pid" },
  { call: `POST ${C3}/account/3pid/add`, from: "POST /account/3pid/add" },
  { call: `POST ${C3}/account/3pid/bind`, from: "POST /account/3pid/bind" },
  { call: `POST ${C3}/account/3pid/unbind`, from: "POST /account/3pid/unbind" },
  { call: `POST ${C3}/account/3pid/delete`, from: "POST /account/3pid/delete" },
  { call: `POST ${C3}/account/password`, from: "POST /account/password: auth, new_password, logout_devices" },
  { call: `POST ${C3}/account/deactivate`, from: "POST /account/deactivate: auth, erase" },
  { call: `GET ${C3}/account/whoami`, from: "GET /account/whoami" },
  { call: `POST ${C3}/register/email/requestToken`, from: "POST /register/email/requestToken" },
  { call: `POST ${C3}/register/msisdn/requestToken`, from: "POST /register/msisdn/requestToken" },
  { call: `POST ${C3}/account/3pid/email/requestToken`, from: "POST /account/3pid/email/requestToken" },
  { call: `POST ${C3}/account/3pid/msisdn/requestToken`, from: "POST /account/3pid/msisdn/requestToken" },
  {
    call: `POST ${C3}/account/password/email/requestToken`,
    from: "POST /account/password/email/requestToken",
  },
  {
    call: `POST ${C3}/account/password/msisdn/requestToken`,
    from: "POST /account/password/msisdn/requestToken",
  },
  { call: `GET ${C3}/register/available`, from: "GET /register/available: username" },
  { call: `POST ${C3}/register`, from: "POST /register: auth, username, password, refresh_token" },
  { call: `POST ${C3}/register`, query: ["kind"], from: "POST /register: kind guest" },
  {
    call: `POST ${C3}/refresh`,
    alt: [`${C1}/refresh`, `${UNSTABLE}/org.matrix.msc2918/refresh`],
    from: "POST /refresh: refresh_token",
  },
  { call: `GET ${C3}/login`, from: "GET /login" },
  { call: `POST ${C3}/login`, from: "POST /login" },
  {
    call: `GET ${C3}/login/sso/redirect`,
    alt: [`${C3}/login/sso/redirect/{idpId}`],
    from: "/login/sso/redirect",
  },
  {
    call: `POST ${C1}/login/get_token`,
    alt: [`${UNSTABLE}/org.matrix.msc3882/login/get_token`],
    from: "POST /login/get_token",
  },
  { call: `POST ${C3}/logout`, from: "POST /logout" },
  { call: `GET ${C3}/devices/{deviceId}`, from: "GET /devices/{id}" },
  { call: `PUT ${C3}/devices/{deviceId}`, from: "PUT /devices/{id}" },
  { call: `DELETE ${C3}/devices/{deviceId}`, from: "DELETE /devices/{id}" },
  { call: `POST ${C3}/delete_devices`, from: "POST /delete_devices" },
  { call: `GET ${C3}/pushers`, from: "GET /pushers" },
  { call: `POST ${C3}/pushers/set`, from: "POST /pushers/set" },
  { call: `PUT ${C3}/pushrules/{scope}/{kind}/{ruleId}`, from: "PUT /pushrules/{scope}/{kind}/{ruleId}" },
  {
    call: `DELETE ${C3}/pushrules/{scope}/{kind}/{ruleId}`,
    from: "DELETE /pushrules/{scope}/{kind}/{ruleId}",
  },
  { call: `PUT ${C3}/pushrules/{scope}/{kind}/{ruleId}/enabled`, from: "PUT .../enabled: enabled" },
  { call: `PUT ${C3}/pushrules/{scope}/{kind}/{ruleId}/actions`, from: "PUT .../actions: actions" },
  { call: `POST ${C3}/user/{userId}/openid/request_token`, from: "POST /user/{userId}/openid/request_token" },
  { call: `POST ${C3}/keys/upload`, from: "POST /keys/upload" },
  { call: `POST ${C3}/keys/signatures/upload`, from: "POST /keys/signatures/upload" },
  { call: `POST ${C3}/keys/query`, from: "POST /keys/query" },
  { call: `POST ${C3}/keys/claim`, from: "POST /keys/claim" },
  { call: `POST ${C3}/keys/device_signing/upload`, from: "POST /keys/device_signing/upload" },
  { call: `GET ${C3}/keys/changes`, from: "GET /keys/changes" },
  { call: `GET ${C3}/thirdparty/protocols`, from: "GET /thirdparty/protocols" },
  { call: `GET ${C3}/thirdparty/location/{protocol}`, from: "GET /thirdparty/location/{protocol}" },
  { call: `GET ${C3}/thirdparty/user/{protocol}`, from: "GET /thirdparty/user/{protocol}" },
  {
    call: `GET ${C1}/auth_metadata`,
    alt: [`${UNSTABLE}/org.matrix.msc2965/auth_metadata`],
    from: "GET /auth_metadata",
  },
  { call: "GET /_synapse/admin/v1/users/{userId}/admin", from: "Admin: check admin status", noSpec: SYNAPSE },
  {
    call: `GET ${C3}/admin/whois/{userId}`,
    alt: ["/_synapse/admin/v1/whois/{userId}"],
    from: "Admin: GET /whois/{userId}",
  },
  {
    call: "POST /_synapse/admin/v1/deactivate/{userId}",
    from: "Admin: POST /deactivate/{userId}",
    noSpec: SYNAPSE,
  },
  { call: `GET ${ID}`, from: "Homeserver discovery: identity-server v2 root" },
  { call: `POST ${ID}/account/register`, from: "Identity: POST /account/register" },
  { call: `POST ${ID}/validate/email/requestToken`, from: "Identity: POST /validate/email/requestToken" },
  { call: `POST ${ID}/validate/msisdn/requestToken`, from: "Identity: POST /validate/msisdn/requestToken" },
  { call: `POST ${ID}/validate/msisdn/submitToken`, from: "Identity: POST /validate/msisdn/submitToken" },
  { call: `GET ${ID}/hash_details`, from: "Identity: GET /hash_details" },
  { call: `POST ${ID}/lookup`, from: "Identity: POST /lookup (pepper, addresses, algorithm)" },
  { call: `GET ${ID}/account`, from: "Identity: GET /account" },
  { call: `GET ${ID}/terms`, from: "Identity: GET /terms" },
  { call: `POST ${ID}/terms`, from: "Identity: POST terms acceptance (user_accepts)" },
  { call: `GET ${C3}/capabilities`, from: "GET /capabilities" },
];
