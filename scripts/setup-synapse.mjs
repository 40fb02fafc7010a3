/**
 * Installs real Synapse homeservers for the interop tests: `matrix-synapse`
 * from PyPI, each version in its own virtualenv under the user's cache
 * folder (`${XDG_CACHE_HOME:-~/.cache}/lattice/synapse/<version>/venv`), so a
 * fresh clone on the same machine reuses it. An install counts only once its
 * marker file is written, after pip succeeded: a half-done venv (killed,
 * network error) is removed and redone. A lock directory keeps two processes
 * (two test workers, two gates) from installing the same version at once.
 *
 * Synapse 1.67.0 (the old-server profile) is installed with a constraints
 * file that pins the few dependencies whose later releases break it.
 *
 * `node scripts/setup-synapse.mjs [--json] [current|1.67 ...]` installs the
 * named profiles (all when none is named) and prints each venv's path (with
 * --json, one JSON line per profile: profile, version, venv, cacheDir; the
 * test helper startSynapse reads it, so the version table lives here only).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

const here = new URL(".", import.meta.url).pathname;

/** The Synapse profiles the tests use: profile name -> PyPI version and optional constraints file. */
export const SYNAPSE_PROFILES = {
  current: { version: "1.163.2" },
  1.67: { version: "1.67.0", constraints: join(here, "synapse", "constraints-1.67.0.txt") },
};

/** The cache folder of one Synapse version. */
export function synapseCacheDir(version) {
  const cache = process.env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(cache, "lattice", "synapse", version);
}

const LOCK_STALE_MS = 15 * 60_000;

function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function pidAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Runs `fn` holding the lock directory `lockDir`; waits for another holder, takes over a dead one's lock. */
export function withLock(lockDir, fn) {
  for (;;) {
    try {
      mkdirSync(lockDir);
      writeFileSync(join(lockDir, "pid"), String(process.pid));
      break;
    } catch (err) {
      if (err.code !== "EEXIST") throw err;
      let holder = NaN;
      try {
        holder = Number(readFileSync(join(lockDir, "pid"), "utf8"));
      } catch {
        // The holder has made the directory but not yet written its pid.
      }
      let age;
      try {
        age = Date.now() - statSync(lockDir).mtimeMs;
      } catch {
        continue; // released meanwhile
      }
      const dead = Number.isFinite(holder) ? !pidAlive(holder) : age > 10_000;
      if (dead || age > LOCK_STALE_MS) rmSync(lockDir, { recursive: true, force: true });
      else sleep(500);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}

function python() {
  for (const candidate of ["python3.11", "python3"]) {
    try {
      execFileSync(candidate, ["--version"], { stdio: "ignore" });
      return candidate;
    } catch {
      // try the next one
    }
  }
  throw new Error("Python 3.11 is needed to run Synapse (python3.11 or python3 on the PATH)");
}

/**
 * Makes sure the named Synapse profile is installed; returns its venv's path.
 * Idempotent and cheap when the marker is there.
 */
export function ensureSynapse(profile = "current") {
  const spec = SYNAPSE_PROFILES[profile];
  if (!spec)
    throw new Error(
      `unknown Synapse profile "${profile}" (known: ${Object.keys(SYNAPSE_PROFILES).join(", ")})`,
    );
  const dir = synapseCacheDir(spec.version);
  const venv = join(dir, "venv");
  const marker = join(dir, "installed.json");
  if (existsSync(marker)) return venv;
  mkdirSync(dir, { recursive: true });
  return withLock(join(dir, "install.lock"), () => {
    if (existsSync(marker)) return venv; // another process finished it while we waited
    console.error(`[setup] installing matrix-synapse==${spec.version} into ${venv}`);
    rmSync(venv, { recursive: true, force: true });
    rmSync(join(dir, "template"), { recursive: true, force: true });
    execFileSync(python(), ["-m", "venv", venv], { stdio: "inherit" });
    const pip = join(venv, "bin", "pip");
    const args = ["install", "--quiet", "--disable-pip-version-check", `matrix-synapse==${spec.version}`];
    if (spec.constraints) args.push("--constraint", spec.constraints);
    execFileSync(pip, args, { stdio: "inherit" });
    // A real import catches a dependency that installs but breaks Synapse (as today's prometheus_client breaks 1.67).
    execFileSync(join(venv, "bin", "python"), ["-c", "import synapse.app.homeserver"], { stdio: "inherit" });
    writeFileSync(
      marker,
      JSON.stringify({ version: spec.version, installedAt: new Date().toISOString() }) + "\n",
    );
    return venv;
  });
}

if (process.argv[1] && new URL(import.meta.url).pathname === process.argv[1]) {
  const json = process.argv.includes("--json");
  const wanted = process.argv.slice(2).filter((a) => a !== "--json");
  for (const profile of wanted.length > 0 ? wanted : Object.keys(SYNAPSE_PROFILES)) {
    const venv = ensureSynapse(profile);
    const { version } = SYNAPSE_PROFILES[profile];
    if (json) console.log(JSON.stringify({ profile, version, venv, cacheDir: synapseCacheDir(version) }));
    else console.log(`${profile}: ${venv}`);
  }
}
