/**
 * First-use set-up shared by `npm start` and `npm test`: installs node
 * modules when they are missing or older than package-lock.json, Debian's
 * Chromium when a browser is needed and /usr/bin/chromium is absent, coturn
 * (the TURN server of the call tests) likewise, and the Synapse
 * homeservers of the interop tests (scripts/setup-synapse.mjs: cached
 * virtualenvs under ~/.cache/lattice/synapse/<version>), and the SFU of
 * the group call tests (scripts/setup-livekit.mjs: livekit-server and
 * lk-jwt-service built with Go under ~/.cache/lattice/<name>/<version>).
 */
import { execSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;

function run(cmd) {
  console.log(`[setup] ${cmd}`);
  execSync(cmd, { stdio: "inherit", cwd: root });
}

/** Installs node modules unless node_modules is present and newer than the lock file. */
export function ensureNodeModules() {
  const marker = join(root, "node_modules", ".package-lock.json");
  const lock = join(root, "package-lock.json");
  const stale = !existsSync(marker) || statSync(marker).mtimeMs < statSync(lock).mtimeMs - 1000;
  if (stale) run("npm ci --no-audit --no-fund");
}

/** Installs Debian's Chromium when it is missing (we run as root on the dev and CI machines). */
export function ensureChromium() {
  if (existsSync("/usr/bin/chromium")) return;
  run("apt-get update -qq");
  run("DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium");
}

/** Installs Debian's coturn (the TURN server the call tests run) when it is missing. */
export function ensureCoturn() {
  if (existsSync("/usr/bin/turnserver")) return;
  run("apt-get update -qq");
  run("DEBIAN_FRONTEND=noninteractive apt-get install -y -qq coturn");
}
