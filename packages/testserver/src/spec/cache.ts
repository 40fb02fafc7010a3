/**
 * A disk cache of the dereferenced operations. Parsing and inlining the YAML
 * definitions costs about a second of CPU, and every test file (a fresh
 * module registry) used to pay it; reading the same result back as JSON
 * costs a few milliseconds. The key covers every definition file (path,
 * size, mtime) and the source of the loader, so any change to either builds
 * a new entry. The first process of a run writes it (atomically, by rename);
 * the others read it. LATTICE_SPEC_CACHE=off turns it (and the compiled
 * validator cache of compiled.ts) off, LATTICE_SPEC_CACHE=<dir> moves it.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, readdirSync, renameSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Operation } from "./operations";

/** Bump when the cached shape changes in a way the loader's source does not show. */
const FORMAT = 1;

/** Files whose code decides what the loader produces. */
const LOADER_SOURCES = ["./deref.ts", "./operations.ts"];

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

/** Every file under `dir` with its size and mtime, in a stable order. */
function fingerprint(dir: string, hash: ReturnType<typeof createHash>): void {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) fingerprint(path, hash);
    else if (entry.isFile()) {
      const s = statSync(path);
      hash.update(`${path}\0${s.size}\0${s.mtimeMs}\n`);
    }
  }
}

/** The cache key for a data folder, or undefined when the loader's source cannot be read (bundled code). */
export function specCacheKey(dataDir: string): string | undefined {
  if (!keys.has(dataDir)) keys.set(dataDir, computeKey(dataDir));
  return keys.get(dataDir);
}

/** Keys per data folder, once per process: the definitions do not change under a running test. */
const keys = new Map<string, string | undefined>();

function computeKey(dataDir: string): string | undefined {
  const hash = createHash("sha256").update(`format ${FORMAT}\n`);
  try {
    for (const source of LOADER_SOURCES)
      hash.update(readFileSync(fileURLToPath(new URL(source, import.meta.url))));
    fingerprint(dataDir, hash);
  } catch {
    return undefined;
  }
  return hash.digest("hex").slice(0, 32);
}

/**
 * The operations of `dataDir`: from the cache when an entry for the current
 * definitions and loader exists, otherwise from `load`, then stored.
 */
export function cachedOperations(dataDir: string, load: () => Operation[]): Operation[] {
  const dir = specCacheDir();
  const key = dir === undefined ? undefined : specCacheKey(dataDir);
  if (dir === undefined || key === undefined) return load();
  const file = join(dir, `operations-${key}.json`);
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Operation[];
  } catch {
    // No entry yet (or a damaged one): build it.
  }
  const operations = load();
  writeCacheFile(file, JSON.stringify(operations));
  return operations;
}
