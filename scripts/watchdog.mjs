/**
 * Runs one server and ends it when its parent goes away: the one lifetime
 * mechanism of every server the tests start (Synapse, coturn, livekit-server,
 * lk-jwt-service), used through packages/testserver/src/process/watched.ts.
 *
 * Usage: node scripts/watchdog.mjs [--cleanup <dir>] -- <binary> [arguments...]
 *
 * The parent (the test process) holds our stdin open. When it exits, even
 * by a crash or SIGKILL, the pipe closes: we kill the child at once, wait for
 * it, remove the --cleanup folder (the server's data or log folder) and end,
 * so no server and no temporary folder is left after a test run. SIGTERM or
 * SIGINT sent to us is passed on to the child (a graceful stop). The
 * child's output passes through; its exit ends us with the same code.
 */
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";

const argv = process.argv.slice(2);
const split = argv.indexOf("--");
const own = split === -1 ? [] : argv.slice(0, split);
const [binary, ...args] = split === -1 ? argv : argv.slice(split + 1);
const cleanupAt = own.indexOf("--cleanup");
const cleanup = cleanupAt === -1 ? undefined : own[cleanupAt + 1];

if (!binary) {
  console.error("watchdog: usage: watchdog.mjs [--cleanup <dir>] -- <binary> [arguments...]");
  process.exit(2);
}

const child = spawn(binary, args, { stdio: ["ignore", "inherit", "inherit"], env: process.env });
let orphaned = false;

function alive() {
  return child.exitCode === null && child.signalCode === null;
}

function stop(signal) {
  if (alive()) child.kill(signal);
}

child.on("exit", (code, signal) => {
  // The folder goes only when the parent is gone: a parent still alive reads the logs in it after a failure.
  if (orphaned && cleanup) rmSync(cleanup, { recursive: true, force: true });
  process.exit(code ?? (signal ? 1 : 0));
});
child.on("error", (err) => {
  console.error(`watchdog: cannot run ${binary}: ${err.message}`);
  process.exit(127);
});

function parentGone() {
  orphaned = true;
  if (alive()) child.kill("SIGKILL");
  else {
    if (cleanup) rmSync(cleanup, { recursive: true, force: true });
    process.exit(0);
  }
}

process.stdin.on("data", () => {});
process.stdin.on("end", parentGone);
process.stdin.on("error", parentGone);
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGTERM"));
