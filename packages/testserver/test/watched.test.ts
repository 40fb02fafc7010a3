/**
 * The one lifetime mechanism of the servers tests start
 * (scripts/watchdog.mjs through src/process/watched.ts): when the test
 * process dies by SIGKILL, the server ends and its folder is removed; when
 * the server exits by itself, its folder stays for the test to read its
 * logs; kill() ends a server that ignores SIGTERM once the grace runs out.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { spawnWatched } from "../src/process/watched";

const WATCHDOG = fileURLToPath(new URL("../../../scripts/watchdog.mjs", import.meta.url));
const dirs: string[] = [];

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), "lattice-watched-"));
  writeFileSync(join(dir, "server.log"), "a log line\n");
  dirs.push(dir);
  return dir;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Resolves once `check` holds, polling on the event loop; the test's own timeout bounds it. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 20));
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("servers under the watchdog", () => {
  it("end, and their folder goes, when the test process is SIGKILLed", async () => {
    const dir = folder();
    // A stand-in test process: it starts a server under the watchdog and holds its lifeline.
    const server = 'console.log("pid " + process.pid); setInterval(() => {}, 1000);';
    const parentCode = `
      const { spawn } = require("node:child_process");
      spawn(process.execPath, [${JSON.stringify(WATCHDOG)}, "--cleanup", ${JSON.stringify(dir)}, "--",
        process.execPath, "-e", ${JSON.stringify(server)}], { stdio: ["pipe", "inherit", "inherit"] });
      setInterval(() => {}, 1000);`;
    const parent = spawn(process.execPath, ["-e", parentCode], { stdio: ["ignore", "pipe", "inherit"] });
    const pid = await new Promise<number>((resolve) => {
      parent.stdout.setEncoding("utf8");
      parent.stdout.on("data", (d: string) => {
        const m = /pid (\d+)/.exec(d);
        if (m) resolve(Number(m[1]));
      });
    });
    expect(alive(pid)).toBe(true);
    parent.kill("SIGKILL");
    await until(() => !alive(pid));
    await until(() => !existsSync(dir));
    expect(alive(pid)).toBe(false);
    expect(existsSync(dir)).toBe(false);
  }, 30_000);

  it("keep the folder when the server exits by itself, for its logs", async () => {
    const dir = folder();
    const proc = spawnWatched(process.execPath, ["-e", 'console.log("bye"); process.exit(3)'], {
      cleanupDir: dir,
    });
    const code = await new Promise<number | null>((resolve) => proc.child.once("exit", (c) => resolve(c)));
    expect(code).toBe(3);
    expect(proc.tail()).toContain("bye");
    expect(existsSync(join(dir, "server.log"))).toBe(true);
    await proc.kill();
  }, 30_000);

  it("kill() ends a server that ignores SIGTERM once the grace runs out", async () => {
    const stubborn =
      'process.on("SIGTERM", () => {}); console.log("pid " + process.pid); setInterval(() => {}, 1000);';
    const proc = spawnWatched(process.execPath, ["-e", stubborn], { graceMs: 200 });
    await until(() => /pid \d+/.test(proc.tail()));
    const pid = Number(/pid (\d+)/.exec(proc.tail())?.[1]);
    await proc.kill();
    await until(() => !alive(pid));
    expect(alive(pid)).toBe(false);
    expect(proc.child.exitCode !== null || proc.child.signalCode !== null).toBe(true);
  }, 30_000);
});
