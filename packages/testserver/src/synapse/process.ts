/**
 * One Synapse process: finds (or installs, through scripts/setup-synapse.mjs)
 * the profile's virtualenv, runs Synapse under the common watchdog
 * (../process/watched.ts), which ends it and removes its data folder when
 * the test process goes away, and waits on outcomes: the
 * server counts as up when `/_matrix/client/versions` answers, and as failed
 * when the process exits first, with the tail of its log in the error.
 */
import { execFile, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { spawnWatched } from "../process/watched";
import type { SynapseProfile } from "./config";

const SETUP_SCRIPT = fileURLToPath(new URL("../../../../scripts/setup-synapse.mjs", import.meta.url));

/** Where a profile is installed, as scripts/setup-synapse.mjs reports it. */
export interface SynapseInstall {
  profile: SynapseProfile;
  /** The PyPI version, e.g. "1.67.0". */
  version: string;
  venv: string;
  cacheDir: string;
}

const installs = new Map<SynapseProfile, Promise<SynapseInstall>>();

/** Installs the profile if needed (cheap once installed) and returns where it is. */
export function synapseInstall(profile: SynapseProfile): Promise<SynapseInstall> {
  let found = installs.get(profile);
  if (!found) {
    found = new Promise<SynapseInstall>((resolve, reject) => {
      execFile(
        process.execPath,
        [SETUP_SCRIPT, "--json", profile],
        { maxBuffer: 16 * 1024 * 1024 },
        (err, stdout, stderr) => {
          if (err) {
            reject(
              new SynapseStartError(
                `installing Synapse ${profile} failed: ${err.message}\n${stderr.slice(-4000)}`,
                false,
              ),
            );
            return;
          }
          const line = stdout
            .trim()
            .split("\n")
            .reverse()
            .find((l) => l.startsWith("{"));
          if (!line)
            reject(new SynapseStartError(`setup-synapse.mjs printed no install record:\n${stdout}`, false));
          else resolve(JSON.parse(line) as SynapseInstall);
        },
      );
    });
    installs.set(profile, found);
    found.catch(() => installs.delete(profile));
  }
  return found;
}

/** A port free on 127.0.0.1 at the time of asking (Synapse cannot report a port it picked itself). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      const port = typeof address === "object" && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** A running Synapse process and the means to end it. */
export interface SynapseProcess {
  child: ChildProcess;
  /** The last lines the process printed and the tail of its log file. */
  tail(): string;
  /** Ends the process (SIGTERM, then SIGKILL after a grace period) and waits for it. */
  kill(): Promise<void>;
}

/** Thrown when Synapse exits before it answers; `portInUse` says a retry on another port may work. */
export class SynapseStartError extends Error {
  constructor(
    message: string,
    readonly portInUse: boolean,
  ) {
    super(message);
    this.name = "SynapseStartError";
  }
}

/** Starts Synapse on `configPath` under the watchdog; the caller waits with {@link waitUntilUp}. */
export function spawnSynapse(install: SynapseInstall, dataDir: string, configPath: string): SynapseProcess {
  const proc = spawnWatched(
    `${install.venv}/bin/python`,
    ["-m", "synapse.app.homeserver", "-c", configPath],
    {
      cwd: dataDir,
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" },
      cleanupDir: dataDir,
      // A graceful stop first: Synapse flushes its database; SIGKILL if it takes longer.
      graceMs: 10_000,
      keepLines: 200,
    },
  );
  const tail = (): string => {
    let log = "";
    try {
      log = readFileSync(`${dataDir}/homeserver.log`, "utf8").split("\n").slice(-60).join("\n");
    } catch {
      // no log yet
    }
    return `--- output ---\n${proc.tail()}\n--- homeserver.log ---\n${log}`;
  };
  return { child: proc.child, tail, kill: () => proc.kill() };
}

/** Resolves when `${url}/_matrix/client/versions` answers 200; rejects when the process exits first or time runs out. */
export async function waitUntilUp(proc: SynapseProcess, url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const exit: { code: string | null } = { code: null };
  // The process may already have exited (exitCode set) before we listen.
  const done = proc.child.exitCode ?? proc.child.signalCode;
  if (done !== null) exit.code = String(done);
  proc.child.once("exit", (code, signal) => (exit.code = String(code ?? signal ?? "unknown")));
  for (;;) {
    if (exit.code !== null) {
      const tail = proc.tail();
      const portInUse = /Address already in use|CannotListenError/.test(tail);
      throw new SynapseStartError(`Synapse exited (${exit.code}) before it answered\n${tail}`, portInUse);
    }
    try {
      const res = await fetch(`${url}/_matrix/client/versions`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await proc.kill();
      throw new SynapseStartError(`Synapse did not answer within ${timeoutMs} ms\n${proc.tail()}`, false);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
