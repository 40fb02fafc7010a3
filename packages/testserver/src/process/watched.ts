/**
 * The one way the tests run a server binary (Synapse, coturn,
 * livekit-server, lk-jwt-service): under scripts/watchdog.mjs, which holds
 * our stdin as its lifeline and ends the server, and removes its folder,
 * when the test process dies, even by SIGKILL. The server gets its own
 * process group, so a stop reaches it as well as the watchdog.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

const WATCHDOG = fileURLToPath(new URL("../../../../scripts/watchdog.mjs", import.meta.url));

/** Options of {@link spawnWatched}. */
export interface WatchedOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** A folder the watchdog removes if the test process dies (the server's data or log folder). */
  cleanupDir?: string;
  /**
   * How long `kill()` waits after SIGTERM before SIGKILL; 0 kills at once
   * (an SFU's graceful stop waits for its rooms to drain, which tests need not).
   */
  graceMs?: number;
  /** How many output lines `tail()` keeps (default 300). */
  keepLines?: number;
}

/** A server running under the watchdog. */
export interface WatchedProcess {
  readonly child: ChildProcess;
  /** The last lines of its output (stdout and stderr). */
  tail(): string;
  /** Stops it (see {@link WatchedOptions.graceMs}) and waits until it has exited. */
  kill(): Promise<void>;
}

/** Starts `binary` with `args` under the watchdog. */
export function spawnWatched(
  binary: string,
  args: readonly string[],
  options: WatchedOptions = {},
): WatchedProcess {
  const own = options.cleanupDir === undefined ? [] : ["--cleanup", options.cleanupDir];
  const child = spawn(process.execPath, [WATCHDOG, ...own, "--", binary, ...args], {
    // stdin stays open as long as we live: the watchdog's lifeline.
    stdio: ["pipe", "pipe", "pipe"],
    env: options.env ?? process.env,
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    detached: true,
  });
  const keep = options.keepLines ?? 300;
  const lines: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    stream?.setEncoding("utf8");
    stream?.on("data", (d: string) => {
      lines.push(...d.split("\n"));
      if (lines.length > keep) lines.splice(0, lines.length - keep);
    });
  }
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const running = (): boolean => child.exitCode === null && child.signalCode === null;
  const killGroup = (): void => {
    if (!running() || child.pid === undefined) return;
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      child.kill("SIGKILL");
    }
  };
  const kill = async (): Promise<void> => {
    if (running()) {
      const grace = options.graceMs ?? 0;
      if (grace > 0) {
        child.kill("SIGTERM");
        const timer = setTimeout(killGroup, grace);
        await exited;
        clearTimeout(timer);
      } else {
        killGroup();
        await exited;
      }
    }
    child.stdin?.destroy();
  };
  return { child, tail: () => lines.slice(-80).join("\n"), kill };
}
