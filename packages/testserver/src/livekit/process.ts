/**
 * The processes of the SFU helpers: finds (or builds, through
 * scripts/setup-livekit.mjs) the binaries, runs each under a small Node
 * watchdog that ends it when the test process goes away, and waits on
 * outcomes: a server counts as up when its health URL answers, and as
 * failed when the process exits first, with the tail of its output in the
 * error.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { createSocket } from "node:dgram";
import { fileURLToPath } from "node:url";

const SETUP_SCRIPT = fileURLToPath(new URL("../../../../scripts/setup-livekit.mjs", import.meta.url));
const WATCHDOG = fileURLToPath(new URL("../../../../scripts/sfu-watchdog.mjs", import.meta.url));

/** The binaries as scripts/setup-livekit.mjs reports them. */
export interface SfuInstall {
  livekit: { version: string; binary: string };
  /** `binary` is null when the token service could not be built (no source checkout). */
  jwtService: { version: string; binary: string | null };
}

let install: Promise<SfuInstall> | undefined;

/** Builds what is missing (cheap once cached) and returns where the binaries are. */
export function sfuInstall(): Promise<SfuInstall> {
  if (!install) {
    install = new Promise<SfuInstall>((resolve, reject) => {
      execFile(
        process.execPath,
        [SETUP_SCRIPT, "--json"],
        { maxBuffer: 16 * 1024 * 1024 },
        (err, stdout, stderr) => {
          if (err) {
            reject(
              new SfuStartError(`building the SFU failed: ${err.message}\n${stderr.slice(-4000)}`, false),
            );
            return;
          }
          const line = stdout
            .trim()
            .split("\n")
            .reverse()
            .find((l) => l.startsWith("{"));
          if (!line)
            reject(new SfuStartError(`setup-livekit.mjs printed no install record:\n${stdout}`, false));
          else resolve(JSON.parse(line) as SfuInstall);
        },
      );
    });
    install.catch(() => (install = undefined));
  }
  return install;
}

/** A UDP port free on 127.0.0.1 at the time of asking. */
export function freeUdpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = createSocket("udp4");
    socket.once("error", reject);
    socket.bind(0, "127.0.0.1", () => {
      const { port } = socket.address();
      socket.close(() => resolve(port));
    });
  });
}

/** A running server process and the means to end it. */
export interface WatchedProcess {
  readonly child: ChildProcess;
  /** The last lines the process printed. */
  tail(): string;
  /** Ends the process and the server under it at once (SIGKILL to its process group) and waits for it. */
  kill(): Promise<void>;
}

/** Thrown when a server exits before it answers, or does not answer in time. */
export class SfuStartError extends Error {
  constructor(
    message: string,
    /** True when the output says a port was taken: a retry on other ports may work. */
    readonly portInUse: boolean,
  ) {
    super(message);
    this.name = "SfuStartError";
  }
}

/** Starts `binary` under the watchdog; the caller waits with {@link waitUntilAnswering}. */
export function spawnWatched(
  binary: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): WatchedProcess {
  const child = spawn(process.execPath, [WATCHDOG, binary, ...args], {
    // stdin stays open as long as we live: the watchdog's lifeline.
    stdio: ["pipe", "pipe", "pipe"],
    env,
    // Its own process group, so kill() reaches the server too, not only the watchdog.
    detached: true,
  });
  const lines: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    stream?.setEncoding("utf8");
    stream?.on("data", (d: string) => {
      lines.push(...d.split("\n"));
      if (lines.length > 300) lines.splice(0, lines.length - 300);
    });
  }
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const kill = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      // SIGKILL to the group: a graceful SFU shutdown waits for its rooms to drain, which tests need not wait for.
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
      await exited;
    }
    child.stdin?.destroy();
  };
  return { child, tail: () => lines.slice(-80).join("\n"), kill };
}

/** Resolves when GET `url` answers (any HTTP status); rejects when the process exits first or time runs out. */
export async function waitUntilAnswering(
  proc: WatchedProcess,
  name: string,
  url: string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exit: string | null = null;
  const done = proc.child.exitCode ?? proc.child.signalCode;
  if (done !== null) exit = String(done);
  proc.child.once("exit", (code, signal) => (exit = String(code ?? signal ?? "unknown")));
  for (;;) {
    if (exit !== null) {
      const tail = proc.tail();
      throw new SfuStartError(
        `${name} exited (${exit}) before it answered\n${tail}`,
        /address already in use/i.test(tail),
      );
    }
    try {
      await fetch(url, { signal: AbortSignal.timeout(2000) });
      return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await proc.kill();
      throw new SfuStartError(`${name} did not answer within ${timeoutMs} ms\n${proc.tail()}`, false);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
