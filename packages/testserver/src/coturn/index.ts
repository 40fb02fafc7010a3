/**
 * Debian's coturn for tests (`@lattice/testserver/coturn`): `startCoturn()`
 * runs /usr/bin/turnserver on 127.0.0.1, on a random port, with a generated
 * shared secret (the TURN REST API: use-auth-secret), no TLS or DTLS, relay
 * ports in a random block, and its log in a temporary folder. It answers
 * once a STUN Binding request does. The process runs under the common
 * watchdog (../process/watched.ts), so it dies, and its folder goes, with
 * the test process even when that is killed; `stop()` ends it and removes
 * the folder.
 *
 * The handle gives what a homeserver's voip/turnServer needs (uris, secret)
 * and `credentials(user)`, the REST API credentials a homeserver would
 * compute: username `expiry:user`, password base64 HMAC-SHA1(secret, username).
 */
import { createHmac, randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnWatched } from "../process/watched";
import { freePort } from "../synapse/process";
import { stunBinding } from "./stun";

export { stunBinding, turnAllocate, TurnError } from "./stun";
export type { TurnAllocateOptions } from "./stun";

/** Where Debian installs coturn's server (scripts/setup.mjs installs the package). */
export const TURNSERVER_PATH = "/usr/bin/turnserver";

/** Options of {@link startCoturn}. */
export interface StartCoturnOptions {
  /** The realm (default "lattice.test"). */
  realm?: string;
  /** How long to wait for the first STUN answer (default 30 s, for a loaded machine). */
  startTimeoutMs?: number;
}

/** A running coturn. */
export interface CoturnHandle {
  /** turn: URIs over UDP and TCP, as voip/turnServer hands them out. */
  uris: string[];
  /** The shared secret (static-auth-secret) the homeserver signs credentials with. */
  secret: string;
  realm: string;
  host: string;
  port: number;
  /** REST API credentials for `user`, valid for `ttlSeconds` (default 1 day). */
  credentials(user: string, ttlSeconds?: number): { username: string; password: string; ttl: number };
  /** The tail of coturn's log, for failure messages. */
  logTail(): string;
  /** Ends the process and removes its folder. */
  stop(): Promise<void>;
}

/** coturn's REST API credentials for `user`: username `expiry:user`, password base64 HMAC-SHA1(secret, username). */
export function turnRestCredentials(
  secret: string,
  user: string,
  ttlSeconds: number,
  nowMs = Date.now(),
): { username: string; password: string; ttl: number } {
  const username = `${Math.floor(nowMs / 1000) + ttlSeconds}:${user}`;
  return {
    username,
    password: createHmac("sha1", secret).update(username).digest("base64"),
    ttl: ttlSeconds,
  };
}

function turnserverArgs(o: {
  port: number;
  secret: string;
  realm: string;
  logFile: string;
  pidFile: string;
  minPort: number;
}): string[] {
  return [
    `--listening-port=${o.port}`,
    "--listening-ip=127.0.0.1",
    "--relay-ip=127.0.0.1",
    // Both call parties and the relay are on loopback; coturn refuses loopback peers unless told.
    "--allow-loopback-peers",
    `--min-port=${o.minPort}`,
    `--max-port=${o.minPort + 199}`,
    "--use-auth-secret",
    `--static-auth-secret=${o.secret}`,
    `--realm=${o.realm}`,
    "--fingerprint",
    "--no-tls",
    "--no-dtls",
    "--no-cli",
    "--no-multicast-peers",
    "--no-software-attribute",
    `--log-file=${o.logFile}`,
    "--simple-log",
    "--no-stdout-log",
    `--pidfile=${o.pidFile}`,
  ];
}

/** Starts coturn on loopback and resolves once it answers STUN. */
export async function startCoturn(options: StartCoturnOptions = {}): Promise<CoturnHandle> {
  if (!existsSync(TURNSERVER_PATH))
    throw new CoturnStartError(
      `${TURNSERVER_PATH} is missing: run scripts/setup.mjs (it installs Debian's coturn)`,
    );
  const realm = options.realm ?? "lattice.test";
  const timeoutMs = options.startTimeoutMs ?? 30_000;
  for (let attempt = 1; ; attempt++) {
    const dir = mkdtempSync(join(tmpdir(), "lattice-coturn-"));
    const port = await freePort();
    const secret = randomBytes(24).toString("hex");
    const logFile = join(dir, "turn.log");
    // A random block of 200 relay ports, so two coturns of one run rarely share one.
    const minPort = 40_000 + Math.floor(Math.random() * 100) * 200;
    const args = turnserverArgs({ port, secret, realm, logFile, pidFile: join(dir, "turn.pid"), minPort });
    const proc = spawnWatched(TURNSERVER_PATH, args, { cleanupDir: dir, graceMs: 5_000 });
    const child = proc.child;
    const logTail = (): string => {
      let log = "";
      try {
        log = readFileSync(logFile, "utf8").split("\n").slice(-40).join("\n");
      } catch {
        // no log yet
      }
      return `--- output ---\n${proc.tail()}\n--- turn.log ---\n${log}`;
    };
    const stop = async (): Promise<void> => {
      await proc.kill();
      rmSync(dir, { recursive: true, force: true });
    };
    const deadline = Date.now() + timeoutMs;
    let up = false;
    while (!up && child.exitCode === null && child.signalCode === null && Date.now() < deadline) {
      up = await stunBinding("127.0.0.1", port, 500).then(
        () => true,
        () => false,
      );
    }
    if (up) {
      return {
        uris: [`turn:127.0.0.1:${port}?transport=udp`, `turn:127.0.0.1:${port}?transport=tcp`],
        secret,
        realm,
        host: "127.0.0.1",
        port,
        credentials: (user, ttl = 86_400) => turnRestCredentials(secret, user, ttl),
        logTail,
        stop,
      };
    }
    const tail = logTail();
    await stop();
    // Another process may have taken the port between freePort() and coturn's bind.
    if (attempt < 3 && /Address already in use|Cannot bind/i.test(tail)) continue;
    throw new CoturnStartError(
      `coturn did not answer STUN on 127.0.0.1:${port} within ${timeoutMs} ms\n${tail}`,
    );
  }
}

/** coturn is not installed, or did not answer STUN in time. */
export class CoturnStartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CoturnStartError";
  }
}
