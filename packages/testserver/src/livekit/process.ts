/**
 * The processes of the SFU helpers: finds (or builds, through
 * scripts/setup-livekit.mjs) the binaries (run under the common watchdog of
 * ../process/watched.ts), and waits on
 * outcomes: a server counts as up when its health URL answers, and as
 * failed when the process exits first, with the tail of its output in the
 * error.
 */
import { execFile } from "node:child_process";
import { createSocket } from "node:dgram";
import { fileURLToPath } from "node:url";
import type { WatchedProcess } from "../process/watched";

const SETUP_SCRIPT = fileURLToPath(new URL("../../../../scripts/setup-livekit.mjs", import.meta.url));

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
