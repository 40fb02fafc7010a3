/**
 * Runs one server binary and ends it when its parent goes away.
 *
 * Usage: node scripts/sfu-watchdog.mjs <binary> [arguments...]
 *
 * The parent (the test process) holds our stdin open. When it exits, even
 * by a crash or SIGKILL, the pipe closes and we kill the child at once, so
 * no livekit-server or lk-jwt-service is left running after a test run. The
 * child's output passes through; its exit ends us with the same code.
 */
import { spawn } from "node:child_process";

const [binary, ...args] = process.argv.slice(2);
const child = spawn(binary, args, { stdio: ["ignore", "inherit", "inherit"], env: process.env });

function stop(signal) {
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
}

child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
child.on("error", (err) => {
  console.error(`watchdog: cannot run ${binary}: ${err.message}`);
  process.exit(127);
});
process.stdin.on("data", () => {});
process.stdin.on("end", () => stop("SIGKILL"));
process.stdin.on("error", () => stop("SIGKILL"));
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGTERM"));
