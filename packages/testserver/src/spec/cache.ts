/**
 * Where the spec validators keep what they cache on disk (the compiled
 * validators of compiled.ts), and how they write it. The first process of
 * a run writes an entry (atomically, by rename); the others read it.
 * LATTICE_SPEC_CACHE=off turns the cache off, LATTICE_SPEC_CACHE=<dir>
 * moves it.
 */
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** Where cached files go (per user, so nobody runs code another user left), or undefined when turned off. */
export function specCacheDir(): string | undefined {
  const setting = process.env["LATTICE_SPEC_CACHE"];
  if (setting === "off" || setting === "0") return undefined;
  if (setting !== undefined && setting !== "") return setting;
  return join(tmpdir(), `lattice-spec-cache-${process.getuid?.() ?? "user"}`);
}

/** Writes a cache file atomically (a temporary file renamed into place); failures only cost speed. */
export function writeCacheFile(file: string, text: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const partial = `${file}.${process.pid}.${Date.now()}.tmp`;
    writeFileSync(partial, text);
    renameSync(partial, file);
  } catch {
    // A read-only or full disk only costs speed.
  }
}
