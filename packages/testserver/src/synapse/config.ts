/**
 * The homeserver.yaml of a test Synapse: SQLite, loopback only, no
 * federation listener (only the OpenID user-info endpoint when asked), registration open without verification (so
 * interactive-auth registration runs through the dummy stage) and through the
 * shared secret, every rate limit out of the way, and the experimental
 * features the product uses where the version has them. Written as JSON,
 * which YAML reads as it is.
 */

/** A Synapse profile: the current release, or 1.67.0, an old server (spec v1.2, pure Python). */
export type SynapseProfile = "current" | "1.67";

/** A MatrixRTC transport as Synapse's `matrix_rtc.transports` lists it. */
export interface SynapseRtcTransport {
  type: string;
  url?: string;
  [key: string]: unknown;
}

/**
 * Experimental features to turn off (all default to on where the version has
 * them; a version without a feature never offers it, whatever is asked).
 */
export interface SynapseFeatures {
  /** MSC4140 delayed events (`max_event_delay_duration`). Current only. */
  delayedEvents?: boolean;
  /** MSC4143 RTC transports; a list replaces the default of none listed. Current only. */
  rtcTransports?: boolean | readonly SynapseRtcTransport[];
  /** MSC4186 simplified sliding sync (Synapse's `msc3575_enabled`). Current only. */
  slidingSync?: boolean;
  /** MSC4222 `state_after` in sync. Current only. */
  stateAfter?: boolean;
  /** MSC4354 sticky events. Current only. */
  stickyEvents?: boolean;
  /** MSC3266 room summary: behind a flag in 1.67, always on (stable) in the current release. */
  roomSummary?: boolean;
  /**
   * TURN for /voip/turnServer (any version): coturn's URIs and shared secret
   * (`turn_uris`, `turn_shared_secret`), the credentials' lifetime in ms
   * (`turn_user_lifetime`, default 1 h) and whether guests get them (default true).
   */
  turn?: { uris: readonly string[]; secret: string; userLifetimeMs?: number; allowGuests?: boolean };
  /**
   * Serve `/_matrix/federation/v1/openid/userinfo` (the listener's `openid`
   * resource), so a token service can check the users' OpenID tokens; off
   * by default (the test servers have no federation). Any version.
   */
  openIdUserInfo?: boolean;
  /** Raw settings merged over the generated config last, for what the options above do not cover. */
  extraConfig?: Record<string, unknown>;
}

/** Where one server's files live and what it listens on. */
export interface SynapseConfigInput {
  profile: SynapseProfile;
  dataDir: string;
  port: number;
  serverName: string;
  registrationSharedSecret: string;
  features: SynapseFeatures;
}

const UNLIMITED = { per_second: 100_000, burst_count: 100_000 };

/** Every rate limit either version knows, set far beyond what a test does. */
function rateLimits(): Record<string, unknown> {
  return {
    rc_message: UNLIMITED,
    rc_registration: UNLIMITED,
    rc_registration_token_validity: UNLIMITED,
    rc_login: { address: UNLIMITED, account: UNLIMITED, failed_attempts: UNLIMITED },
    rc_admin_redaction: UNLIMITED,
    rc_joins: { local: UNLIMITED, remote: UNLIMITED },
    rc_joins_per_room: UNLIMITED,
    rc_key_requests: UNLIMITED,
    rc_3pid_validation: UNLIMITED,
    rc_invites: { per_room: UNLIMITED, per_user: UNLIMITED, per_issuer: UNLIMITED },
    rc_third_party_invite: UNLIMITED,
    rc_media_create: UNLIMITED,
    rc_presence: { per_user: UNLIMITED },
    rc_delayed_event_mgmt: UNLIMITED,
    rc_room_creation: UNLIMITED,
    rc_reports: UNLIMITED,
    rc_user_directory: UNLIMITED,
    rc_profile: UNLIMITED,
  };
}

/** The experimental settings for one profile. */
function experimental(profile: SynapseProfile, f: SynapseFeatures): Record<string, unknown> {
  const on = (v: unknown): boolean => v !== false;
  if (profile === "1.67") {
    return { experimental_features: { msc3266_enabled: on(f.roomSummary) } };
  }
  const out: Record<string, unknown> = {
    experimental_features: {
      msc3575_enabled: on(f.slidingSync),
      msc4143_enabled: on(f.rtcTransports),
      msc4222_enabled: on(f.stateAfter),
      msc4354_enabled: on(f.stickyEvents),
    },
  };
  if (on(f.delayedEvents)) out.max_event_delay_duration = "24h";
  if (Array.isArray(f.rtcTransports)) out.matrix_rtc = { transports: f.rtcTransports };
  return out;
}

/** The TURN settings, both versions spell them the same. */
function turnConfig(turn: SynapseFeatures["turn"]): Record<string, unknown> {
  if (!turn) return {};
  return {
    turn_uris: [...turn.uris],
    turn_shared_secret: turn.secret,
    turn_user_lifetime: turn.userLifetimeMs ?? 3_600_000,
    turn_allow_guests: turn.allowGuests ?? true,
  };
}

/** The Python logging set-up: INFO to a file in the data dir, read back when the server fails. */
export function logConfig(logFile: string): Record<string, unknown> {
  return {
    version: 1,
    formatters: { plain: { format: "%(asctime)s %(levelname)s %(name)s %(message)s" } },
    handlers: { file: { class: "logging.FileHandler", filename: logFile, formatter: "plain" } },
    loggers: { "synapse.storage.SQL": { level: "WARNING" } },
    root: { level: "INFO", handlers: ["file"] },
    disable_existing_loggers: false,
  };
}

/** The whole homeserver config for one test server. */
export function synapseConfig(input: SynapseConfigInput): Record<string, unknown> {
  const { dataDir, port } = input;
  return {
    server_name: input.serverName,
    pid_file: `${dataDir}/homeserver.pid`,
    listeners: [
      {
        port,
        bind_addresses: ["127.0.0.1"],
        type: "http",
        tls: false,
        x_forwarded: false,
        resources: [
          { names: input.features.openIdUserInfo ? ["client", "openid"] : ["client"], compress: false },
        ],
      },
    ],
    database: { name: "sqlite3", args: { database: `${dataDir}/homeserver.db` } },
    log_config: `${dataDir}/log.config.yaml`,
    media_store_path: `${dataDir}/media`,
    signing_key_path: `${dataDir}/signing.key`,
    registration_shared_secret: input.registrationSharedSecret,
    macaroon_secret_key: `${input.registrationSharedSecret}-macaroon`,
    form_secret: `${input.registrationSharedSecret}-form`,
    enable_registration: true,
    enable_registration_without_verification: true,
    report_stats: false,
    url_preview_enabled: false,
    trusted_key_servers: [],
    suppress_key_server_warning: true,
    presence: { enabled: true },
    enable_media_repo: true,
    max_upload_size: "50M",
    ...rateLimits(),
    ...experimental(input.profile, input.features),
    ...turnConfig(input.features.turn),
    ...input.features.extraConfig,
  };
}
