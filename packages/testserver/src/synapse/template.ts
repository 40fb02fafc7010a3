/**
 * Start-up templates: a fresh Synapse spends most of its first start
 * creating and migrating its SQLite schema. The first start of a version on
 * a machine does it once in a throwaway server and keeps the migrated
 * database and the signing key in the version's cache folder; every later
 * start copies them into its own data directory. A lock directory keeps two
 * test workers from building the same template at once; a template counts
 * only once its `ready` marker is written.
 */
import { randomBytes } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import type { SynapseInstall } from "./process";

/** The files a template holds (the WAL side files only if Synapse left them). */
export const TEMPLATE_FILES = ["homeserver.db", "homeserver.db-wal", "homeserver.db-shm", "signing.key"];

/** Where the template of an install lives; bump the suffix when the template's shape changes. */
export function templateDir(install: SynapseInstall): string {
  return `${install.cacheDir}/template-v1`;
}

/** A new ed25519 signing key in Synapse's key file format (a random 32-byte seed). */
export function newSigningKey(): string {
  const id = randomBytes(4).toString("hex");
  const seed = randomBytes(32).toString("base64").replace(/=+$/, "");
  return `ed25519 a_${id} ${seed}\n`;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Runs `fn` holding the lock directory; waits for a live holder, takes over a dead one's lock. */
export async function withDirLock<T>(lockDir: string, fn: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      mkdirSync(lockDir);
      writeFileSync(`${lockDir}/pid`, String(process.pid));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      let holder = NaN;
      let age = 0;
      try {
        age = Date.now() - statSync(lockDir).mtimeMs;
        holder = Number(readFileSync(`${lockDir}/pid`, "utf8"));
      } catch {
        // released meanwhile, or the holder has not written its pid yet
      }
      const dead = Number.isFinite(holder) ? !pidAlive(holder) : age > 10_000;
      if (dead || age > 10 * 60_000) rmSync(lockDir, { recursive: true, force: true });
      else await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}

/** True when the install has a finished template. */
export function hasTemplate(install: SynapseInstall): boolean {
  return existsSync(`${templateDir(install)}/ready`);
}

/**
 * Makes the install's template unless it exists: `build(dir)` must run a
 * server in `dir` until it has answered and then stop it; its database and
 * key are then kept.
 */
export async function ensureTemplate(
  install: SynapseInstall,
  build: (dir: string) => Promise<void>,
): Promise<void> {
  if (hasTemplate(install)) return;
  await withDirLock(`${install.cacheDir}/template.lock`, async () => {
    if (hasTemplate(install)) return;
    const target = templateDir(install);
    const work = `${target}.building-${process.pid}`;
    rmSync(work, { recursive: true, force: true });
    mkdirSync(work, { recursive: true });
    try {
      writeFileSync(`${work}/signing.key`, newSigningKey());
      await build(work);
      const kept = `${target}.kept-${process.pid}`;
      mkdirSync(kept, { recursive: true });
      for (const f of TEMPLATE_FILES)
        if (existsSync(`${work}/${f}`)) copyFileSync(`${work}/${f}`, `${kept}/${f}`);
      writeFileSync(`${kept}/ready`, `${install.version}\n`);
      rmSync(target, { recursive: true, force: true });
      renameSync(kept, target);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
}

/** Copies the template's files into a new server's data directory. */
export function copyTemplate(install: SynapseInstall, dataDir: string): void {
  const dir = templateDir(install);
  for (const f of TEMPLATE_FILES)
    if (existsSync(`${dir}/${f}`)) copyFileSync(`${dir}/${f}`, `${dataDir}/${f}`);
}
