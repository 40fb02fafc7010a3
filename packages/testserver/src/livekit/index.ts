/**
 * A real SFU for tests (`@lattice/testserver/livekit`):
 * - `startLiveKit()` runs livekit-server on 127.0.0.1 with random ports (the
 *   signal port, one ICE/TCP port and one muxed UDP port), a generated API
 *   key and secret, no external IP discovery and only loopback candidates;
 * - `startJwtService({ homeserver, livekit })` runs Element's lk-jwt-service
 *   in front of it, trusting the named homeservers (full access: they may
 *   create rooms) and checking OpenID tokens through their federation
 *   user-info endpoint (see tls.ts for the test homeserver's TLS front).
 *
 * Both run under a watchdog that ends them when the test process dies, and
 * stop with `stop()`. Binaries come from scripts/setup-livekit.mjs.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../synapse/process";
import { spawnWatched } from "../process/watched";
import type { WatchedProcess } from "../process/watched";
import { freeUdpPort, sfuInstall, SfuStartError, waitUntilAnswering } from "./process";

export { startFederationTls, selfSignedCertificate } from "./tls";
export type { FederationFront } from "./tls";
export { SfuStartError, sfuInstall } from "./process";
export type { SfuInstall } from "./process";

/** A running livekit-server. */
export interface LiveKitHandle {
  /** The signalling URL clients connect to, e.g. ws://127.0.0.1:40123 */
  readonly url: string;
  /** The same port over HTTP (health check and the server API). */
  readonly httpUrl: string;
  readonly apiKey: string;
  readonly apiSecret: string;
  /** The livekit-server version, e.g. "v1.13.5". */
  readonly version: string;
  /** Milliseconds from spawning the process to its first answer (last start). */
  readonly startMs: number;
  /** The tail of the server's output, for failure messages. */
  logTail(): string;
  /** Kills the server and starts it again on the same ports (an SFU restart: every room is gone). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** Options of {@link startLiveKit}. */
export interface StartLiveKitOptions {
  /** How long to wait for the server to answer (default 60 s, for a loaded machine). */
  startTimeoutMs?: number;
}

function liveKitConfig(
  ports: { signal: number; tcp: number; udp: number },
  key: string,
  secret: string,
): object {
  return {
    port: ports.signal,
    bind_addresses: ["127.0.0.1"],
    rtc: {
      tcp_port: ports.tcp,
      udp_port: ports.udp,
      port_range_start: 0,
      port_range_end: 0,
      use_external_ip: false,
      node_ip: "127.0.0.1",
      enable_loopback_candidate: true,
      ips: { includes: ["127.0.0.1/32"] },
    },
    keys: { [key]: secret },
    logging: { level: "info", json: false },
  };
}

async function spawnLiveKit(binary: string, configPath: string, httpUrl: string, timeoutMs: number) {
  const started = Date.now();
  const proc = spawnWatched(binary, ["--config", configPath]);
  await waitUntilAnswering(proc, "livekit-server", httpUrl, timeoutMs);
  return { proc, startMs: Date.now() - started };
}

/** Starts livekit-server on loopback (retrying on other ports when one was taken meanwhile). */
export async function startLiveKit(options: StartLiveKitOptions = {}): Promise<LiveKitHandle> {
  const install = await sfuInstall();
  const timeoutMs = options.startTimeoutMs ?? 60_000;
  const dir = mkdtempSync(join(tmpdir(), "lattice-livekit-"));
  const apiKey = `lattice${randomBytes(4).toString("hex")}`;
  const apiSecret = randomBytes(32).toString("hex");
  for (let attempt = 0; ; attempt++) {
    const ports = { signal: await freePort(), tcp: await freePort(), udp: await freeUdpPort() };
    const configPath = join(dir, "livekit.yaml");
    // JSON is YAML: the server reads it as its config file.
    writeFileSync(configPath, JSON.stringify(liveKitConfig(ports, apiKey, apiSecret)));
    const httpUrl = `http://127.0.0.1:${ports.signal}`;
    let running: { proc: WatchedProcess; startMs: number };
    try {
      running = await spawnLiveKit(install.livekit.binary, configPath, httpUrl, timeoutMs);
    } catch (err) {
      if (err instanceof SfuStartError && err.portInUse && attempt < 3) continue;
      rmSync(dir, { recursive: true, force: true });
      throw err;
    }
    const handle: LiveKitHandle = {
      url: `ws://127.0.0.1:${ports.signal}`,
      httpUrl,
      apiKey,
      apiSecret,
      version: install.livekit.version,
      get startMs() {
        return running.startMs;
      },
      logTail: () => running.proc.tail(),
      restart: async () => {
        await running.proc.kill();
        running = await spawnLiveKit(install.livekit.binary, configPath, httpUrl, timeoutMs);
      },
      stop: async () => {
        await running.proc.kill();
        rmSync(dir, { recursive: true, force: true });
      },
    };
    return handle;
  }
}

/** A running lk-jwt-service. */
export interface JwtServiceHandle {
  /** The service URL a membership names (`livekit_service_url`), e.g. http://127.0.0.1:40124 */
  readonly url: string;
  /** The lk-jwt-service version, e.g. "v0.5.0". */
  readonly version: string;
  readonly startMs: number;
  logTail(): string;
  stop(): Promise<void>;
}

/** Options of {@link startJwtService}. */
export interface StartJwtServiceOptions {
  /** The homeserver(s) whose users get full access (may create SFU rooms), by server name. */
  homeserver: { serverName: string } | ReadonlyArray<{ serverName: string }>;
  livekit: Pick<LiveKitHandle, "url" | "apiKey" | "apiSecret">;
  startTimeoutMs?: number;
}

/** Thrown when lk-jwt-service cannot be had on this machine (it is not served by the Go module proxy). */
export class JwtServiceUnavailableError extends Error {
  constructor() {
    super(
      "lk-jwt-service is not built: set LATTICE_LK_JWT_SERVICE_SRC to a git checkout of element-hq/lk-jwt-service and run scripts/setup-livekit.mjs",
    );
    this.name = "JwtServiceUnavailableError";
  }
}

/** Starts lk-jwt-service on loopback, pointed at `livekit`, trusting `homeserver`. */
export async function startJwtService(options: StartJwtServiceOptions): Promise<JwtServiceHandle> {
  const install = await sfuInstall();
  const binary = install.jwtService.binary;
  if (binary === null) throw new JwtServiceUnavailableError();
  const homeservers = "serverName" in options.homeserver ? [options.homeserver] : options.homeserver;
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const started = Date.now();
    const proc = spawnWatched(binary, [], {
      env: {
        ...process.env,
        LIVEKIT_URL: options.livekit.url,
        LIVEKIT_KEY: options.livekit.apiKey,
        LIVEKIT_SECRET: options.livekit.apiSecret,
        LIVEKIT_JWT_BIND: `127.0.0.1:${port}`,
        LIVEKIT_FULL_ACCESS_HOMESERVERS: homeservers.map((h) => h.serverName).join(","),
        // The test homeserver's federation front has a self-signed certificate.
        LIVEKIT_INSECURE_SKIP_VERIFY_TLS: "YES_I_KNOW_WHAT_I_AM_DOING",
      },
    });
    try {
      await waitUntilAnswering(proc, "lk-jwt-service", `${url}/healthz`, options.startTimeoutMs ?? 30_000);
    } catch (err) {
      if (err instanceof SfuStartError && err.portInUse && attempt < 3) continue;
      throw err;
    }
    return {
      url,
      version: install.jwtService.version,
      startMs: Date.now() - started,
      logTail: () => proc.tail(),
      stop: () => proc.kill(),
    };
  }
}
