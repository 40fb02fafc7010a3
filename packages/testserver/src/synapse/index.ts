/**
 * Real Synapse for tests (`@lattice/testserver/synapse`):
 * `startSynapse({ version: "current" | "1.67" })` runs the current release or
 * the old-server profile on a random loopback port, in a temporary data
 * directory, and hands back its URL and a way to register users through the
 * shared-secret admin API. The process ends with `stop()`, and by itself if
 * the test process dies. Installs come from scripts/setup-synapse.mjs;
 * starts copy a migrated database template (see template.ts).
 */
import { createHmac, randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { logConfig, synapseConfig, type SynapseFeatures, type SynapseProfile } from "./config";
import {
  freePort,
  spawnSynapse,
  SynapseStartError,
  synapseInstall,
  waitUntilUp,
  type SynapseInstall,
} from "./process";
import { copyTemplate, ensureTemplate, newSigningKey } from "./template";

export type { SynapseFeatures, SynapseProfile, SynapseRtcTransport } from "./config";
export { SynapseStartError } from "./process";

/** Options of {@link startSynapse}. */
export interface StartSynapseOptions {
  /** Which Synapse: the current release (default) or 1.67.0, the old-server profile. */
  version?: SynapseProfile;
  /** Experimental features to turn off; all that the version has are on by default. */
  features?: SynapseFeatures;
  /** Start from the migrated database template (default true); false measures a cold start. */
  template?: boolean;
  /** How long to wait for the server to answer (default 120 s, for a loaded machine). */
  startTimeoutMs?: number;
  /**
   * The server name (default "localhost"). A name of the form
   * `127.0.0.1:<port>` lets a federation peer (lk-jwt-service checking
   * OpenID tokens) reach the server through a TLS front on that port.
   */
  serverName?: string;
}

/** A user registered through the shared-secret admin API, signed in on one device. */
export interface SynapseUser {
  userId: string;
  accessToken: string;
  deviceId: string;
  password: string;
}

/** A running Synapse. */
export interface SynapseHandle {
  /** Base URL, e.g. http://127.0.0.1:40123 */
  url: string;
  serverName: string;
  /** The profile asked for. */
  version: SynapseProfile;
  /** The PyPI version running, e.g. "1.67.0". */
  synapseVersion: string;
  /** Milliseconds from spawning the process to its first answer. */
  startMs: number;
  /** Registers `localpart` (admin if asked) and returns its session. */
  registerUser(localpart: string, options?: { admin?: boolean; password?: string }): Promise<SynapseUser>;
  /** The tail of the server's output and log, for failure messages. */
  logTail(): string;
  /** Stops the server and removes its data directory. */
  stop(): Promise<void>;
}

const SERVER_NAME = "localhost";

function writeServerFiles(
  install: SynapseInstall,
  dataDir: string,
  port: number,
  secret: string,
  features: SynapseFeatures,
  serverName = SERVER_NAME,
): string {
  mkdirSync(`${dataDir}/media`, { recursive: true });
  writeFileSync(`${dataDir}/log.config.yaml`, JSON.stringify(logConfig(`${dataDir}/homeserver.log`)));
  const config = synapseConfig({
    profile: install.profile,
    dataDir,
    port,
    serverName,
    registrationSharedSecret: secret,
    features,
  });
  const configPath = `${dataDir}/homeserver.yaml`;
  writeFileSync(configPath, JSON.stringify(config, null, 2));
  return configPath;
}

/** Registers a user with the HMAC-signed shared-secret admin registration. */
async function registerWithSharedSecret(
  url: string,
  secret: string,
  localpart: string,
  admin: boolean,
  password: string,
): Promise<SynapseUser> {
  const endpoint = `${url}/_synapse/admin/v1/register`;
  const nonceRes = await fetch(endpoint);
  if (!nonceRes.ok)
    throw new SynapseAdminError(`GET ${endpoint}: ${nonceRes.status} ${await nonceRes.text()}`);
  const { nonce } = (await nonceRes.json()) as { nonce: string };
  const mac = createHmac("sha1", secret)
    .update(`${nonce}\0${localpart}\0${password}\0${admin ? "admin" : "notadmin"}`)
    .digest("hex");
  const res = await fetch(endpoint, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ nonce, username: localpart, password, admin, mac }),
  });
  if (!res.ok) throw new SynapseAdminError(`registering ${localpart}: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { user_id: string; access_token: string; device_id: string };
  return { userId: body.user_id, accessToken: body.access_token, deviceId: body.device_id, password };
}

/** Starts a Synapse and waits until it answers `/_matrix/client/versions`. */
export async function startSynapse(options: StartSynapseOptions = {}): Promise<SynapseHandle> {
  const profile = options.version ?? "current";
  const features = options.features ?? {};
  const serverName = options.serverName ?? SERVER_NAME;
  const timeoutMs = options.startTimeoutMs ?? 120_000;
  const install = await synapseInstall(profile);
  const useTemplate = options.template !== false;
  if (useTemplate) {
    await ensureTemplate(install, async (dir) => {
      const port = await freePort();
      const configPath = writeServerFiles(install, dir, port, randomBytes(16).toString("hex"), {});
      const proc = spawnSynapse(install, dir, configPath);
      try {
        await waitUntilUp(proc, `http://127.0.0.1:${port}`, timeoutMs);
      } finally {
        await proc.kill();
      }
    });
  }
  for (let attempt = 1; ; attempt++) {
    const dataDir = mkdtempSync(join(tmpdir(), `lattice-synapse-${install.version}-`));
    const secret = randomBytes(24).toString("hex");
    const port = await freePort();
    if (useTemplate) copyTemplate(install, dataDir);
    else writeFileSync(`${dataDir}/signing.key`, newSigningKey());
    const configPath = writeServerFiles(install, dataDir, port, secret, features, serverName);
    const url = `http://127.0.0.1:${port}`;
    const started = performance.now();
    const proc = spawnSynapse(install, dataDir, configPath);
    try {
      await waitUntilUp(proc, url, timeoutMs);
    } catch (err) {
      await proc.kill();
      rmSync(dataDir, { recursive: true, force: true });
      if (err instanceof SynapseStartError && err.portInUse && attempt < 3) continue;
      throw err;
    }
    const startMs = Math.round(performance.now() - started);
    return {
      url,
      serverName,
      version: profile,
      synapseVersion: install.version,
      startMs,
      registerUser: (localpart, opts = {}) =>
        registerWithSharedSecret(
          url,
          secret,
          localpart,
          opts.admin ?? false,
          opts.password ?? `${localpart}-pw-1`,
        ),
      logTail: () => proc.tail(),
      stop: async () => {
        await proc.kill();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
}

/** Synapse's admin API refused a request of the test set-up (registration with the shared secret). */
export class SynapseAdminError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SynapseAdminError";
  }
}
