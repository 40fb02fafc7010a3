/**
 * Runs one of the set-up scripts (scripts/setup-synapse.mjs,
 * scripts/setup-livekit.mjs) with --json: it installs or builds what is
 * missing into the user's cache (cheap once cached) and prints, as its last
 * JSON line, where the result is.
 */
import { execFile } from "node:child_process";

/** Runs `script` and resolves with its install record; `fail` makes the error for a failed run or a missing record. */
export function readInstallRecord<T>(
  script: string,
  args: readonly string[],
  fail: (message: string) => Error,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    execFile(
      process.execPath,
      [script, "--json", ...args],
      { maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err) {
          reject(fail(`${err.message}\n${stderr.slice(-4000)}`));
          return;
        }
        const line = stdout
          .trim()
          .split("\n")
          .reverse()
          .find((l) => l.startsWith("{"));
        if (!line) reject(fail(`it printed no install record:\n${stdout}`));
        else resolve(JSON.parse(line) as T);
      },
    );
  });
}
