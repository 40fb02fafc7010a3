/**
 * Finds the official Matrix definitions (../shared/matrix-spec beside the
 * repository), which only the bundle's generator and the "bundle is
 * current" test read: the validators read the committed bundle (bundle.ts).
 * LATTICE_MATRIX_SPEC overrides the search; it may name the matrix-spec
 * folder or its data/ folder.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** Thrown when the definitions cannot be found. */
export class SpecNotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SpecNotFoundError";
  }
}

function isDataDir(dir: string): boolean {
  return existsSync(join(dir, "api", "client-server")) && existsSync(join(dir, "event-schemas"));
}

function isRepoRoot(dir: string): boolean {
  const pkg = join(dir, "package.json");
  if (!existsSync(pkg)) return false;
  try {
    const parsed = JSON.parse(readFileSync(pkg, "utf8")) as { workspaces?: unknown };
    return Array.isArray(parsed.workspaces);
  } catch {
    return false;
  }
}

/** The repository root: the nearest ancestor whose package.json declares workspaces. */
export function findRepoRoot(from: string = dirname(fileURLToPath(import.meta.url))): string {
  let dir = resolve(from);
  for (;;) {
    if (isRepoRoot(dir)) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new SpecNotFoundError(`No repository root above ${from}`);
    dir = parent;
  }
}

/** The matrix-spec data folder (holding api/ and event-schemas/). */
export function findSpecDataDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const override = env["LATTICE_MATRIX_SPEC"];
  const candidates = override
    ? [resolve(override), join(resolve(override), "data")]
    : [join(findRepoRoot(), "..", "shared", "matrix-spec", "data")];
  for (const dir of candidates) if (isDataDir(dir)) return dir;
  throw new SpecNotFoundError(`Matrix spec definitions not found (looked in ${candidates.join(", ")})`);
}
