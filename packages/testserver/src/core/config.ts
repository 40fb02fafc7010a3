/**
 * Options of the test homeserver and their defaults.
 */
import type { Clock } from "./clock";
import type { ServerProfile } from "./legacy";

export interface TestServerOptions {
  /** Port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
  /** Seed for deterministic ids and tokens. */
  seed?: number | string;
  /** Clock; defaults to the system clock. */
  clock?: Clock;
  /** The server name in user and room ids; defaults to "localhost". */
  serverName?: string;
  /**
   * Validate every response (and event) against the Matrix definitions (the
   * committed spec bundle, see src/spec/bundle.ts) and record mismatches; defaults to true under Vitest (VITEST env) or when
   * LATTICE_VALIDATE=1.
   */
  validate?: boolean;
  /** Registration: require these stages, e.g. [["m.login.dummy"]] (default) or with email, terms, token. */
  registrationFlows?: string[][];
  /** Registration tokens accepted by m.login.registration_token. */
  registrationTokens?: string[];
  /** Access token lifetime in ms when the client asks for a refresh token (default 5 minutes). */
  accessTokenLifetimeMs?: number;
  /** TURN URIs handed out by /voip/turnServer, and the shared secret. */
  turnUris?: string[];
  turnSecret?: string;
  /** The OpenID provider's issuer, advertised through auth_metadata. */
  oidcIssuer?: string;
  /** Populate demo users and rooms (for `npm start`). */
  demo?: boolean;
  /**
   * MatrixRTC transports (MSC4143) served by `GET /_matrix/client/unstable/
   * org.matrix.msc4143/rtc/transports`; none (default) answers 404 there.
   */
  rtcTransports?: RtcTransportConfig[];
  /**
   * Which homeserver to imitate: "current" (default, today's spec) or
   * "legacy" (Synapse 1.67, spec v1.2: see core/legacy.ts).
   */
  profile?: ServerProfile;
}

/** One MSC4143 transport, in its wire form. */
export interface RtcTransportConfig {
  type: string;
  livekit_service_url?: string;
  [key: string]: unknown;
}

export interface ServerConfig {
  serverName: string;
  registrationFlows: string[][];
  registrationTokens: string[];
  accessTokenLifetimeMs: number;
  turnUris: string[];
  turnSecret: string;
  oidcIssuer?: string;
  validate: boolean;
  profile: ServerProfile;
  /** Mutable: TestServerHandle.setRtcTransports replaces its contents. */
  rtcTransports: RtcTransportConfig[];
}

export function resolveConfig(options: TestServerOptions): ServerConfig {
  return {
    serverName: options.serverName ?? "localhost",
    registrationFlows: options.registrationFlows ?? [["m.login.dummy"]],
    registrationTokens: options.registrationTokens ?? [],
    accessTokenLifetimeMs: options.accessTokenLifetimeMs ?? 5 * 60_000,
    turnUris: options.turnUris ?? ["turn:127.0.0.1:3478?transport=udp", "turn:127.0.0.1:3478?transport=tcp"],
    turnSecret: options.turnSecret ?? "lattice-turn-secret",
    oidcIssuer: options.oidcIssuer,
    profile: options.profile ?? "current",
    rtcTransports: [...(options.rtcTransports ?? [])],
    validate:
      options.validate ?? (process.env["VITEST"] !== undefined || process.env["LATTICE_VALIDATE"] === "1"),
  };
}
